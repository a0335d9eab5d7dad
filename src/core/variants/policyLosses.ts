// The policy losses, one file each under policyLosses/ (what one is: policyLosses/variant.ts): the
// clipped surrogate and the two entropy-mechanism losses of Cui et al. 2025 ("The Entropy Mechanism
// of Reinforcement Learning for Reasoning Language Models"), verl's policy_loss.loss_mode vanilla,
// clip_cov and kl_cov. The list is the `policyLoss` options in the form's order; config.ts, the
// policy step (rl/update.ts), the pass before it (rl/covPass.ts) and the RAGEN exporter read the
// rows from here. A new policy loss is one file beside the others and one line in POLICY_LOSS_VARIANTS.
import { clip } from './policyLosses/clip.js';
import { clipCov } from './policyLosses/clipCov.js';
import { klCov } from './policyLosses/klCov.js';
import type { PolicyLossVariant } from './policyLosses/variant.js';
import { byName, namesOf, rowOf } from './registry.js';

export const POLICY_LOSS_VARIANTS = [clip, clipCov, klCov] as const;

export type PolicyLossName = (typeof POLICY_LOSS_VARIANTS)[number]['name'];

/** The `policyLoss` options, in the form's order. */
export const POLICY_LOSS_NAMES = namesOf(POLICY_LOSS_VARIANTS);

/** Each policy loss by its name. */
export const POLICY_LOSSES = byName(POLICY_LOSS_VARIANTS);

/** The row a `policyLoss` value names. */
export function policyLossOf(name: PolicyLossName): PolicyLossVariant {
  return rowOf(POLICY_LOSSES, name, 'policy loss');
}

export type { PolicyLossSettings, PolicyLossTensors, PolicyLossVariant } from './policyLosses/variant.js';
