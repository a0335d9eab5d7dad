// The policy losses' names as plain data that imports nothing, so config.ts can list them (as
// core/variants/filters.ts does for the filters): the clipped surrogate and the two entropy-mechanism
// losses of Cui et al. 2025 ("The Entropy Mechanism of Reinforcement Learning for Reasoning
// Language Models"), verl's policy_loss.loss_mode vanilla, clip_cov and kl_cov. Their rows, with
// the functions, are covLosses.ts POLICY_LOSSES.

/** The `policyLoss` options, in the form's order. */
export const POLICY_LOSS_NAMES = ['clip', 'clip-cov', 'kl-cov'] as const;

export type PolicyLossName = (typeof POLICY_LOSS_NAMES)[number];

/** Whether a loss picks tokens by their covariance (then it needs one ratio per token). */
export const SELECTS_BY_COVARIANCE: Readonly<Record<PolicyLossName, boolean>> = {
  clip: false,
  'clip-cov': true,
  'kl-cov': true,
};
