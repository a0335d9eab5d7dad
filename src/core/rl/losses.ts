// The losses of one update, as tfjs ops over [B, T] tensors (B = trajectories, T = tokens),
// averaged over the loss mask by a row of `LOSS_AGGS` (verl `agg_loss`): "token-mean" over every
// masked token of the minibatch, "seq-mean-token-mean" (each row's token mean, then the mean over
// rows) or "seq-mean-token-sum" (Dr. GRPO):
// - clipped surrogate with decoupled ε_low / ε_high (RAGEN Eq 6, DAPO clip-higher), its ratio per
//   token or per sequence (GSPO) by a row of `RATIO_LEVELS`;
// - entropy bonus; KL to the reference with the k1 and k3 estimators (Schulman, "Approximating
//   KL divergence"); clipped value loss (verl: 0.5·max((V−R)², (clip(V, V_old ± c) − R)²));
// - DPO (Rafailov et al. 2023, Eq 7) on sequence log-probs against the reference.
// Names follow cleanrl's ppo.py. Callers own the returned tensors (or run inside tf.tidy).
import * as tf from '@tensorflow/tfjs';
import type { Config } from '../config.js';

/** Σ(x·mask)/max(Σmask, 1): the token mean over masked positions. */
export function maskedMean(x: tf.Tensor, mask: tf.Tensor): tf.Scalar {
  return tf.tidy(() => tf.div(tf.sum(tf.mul(x, mask)), tf.maximum(tf.sum(mask), 1)) as tf.Scalar);
}

/**
 * How per-token losses are averaged (verl `loss_agg_mode`). RAGEN's config sets "token-mean"
 * (mll-lab-nu/RAGEN config/base.yaml `loss_agg_mode: "token-mean"`; RAGEN-AI main@5eb79b8
 * leaves it to verl's ppo_trainer.yaml default, also "token-mean"); the paper-era v0423
 * actor has no switch and takes verl's masked_mean, a token mean (per micro-batch).
 */
export type LossAgg = Config['lossAgg'];

/**
 * The mean over rows with any masked token of `perRow(Σ_t x·mask, Σ_t mask)` [B] (rows with none
 * are left out).
 */
function meanOverRows(
  x: tf.Tensor,
  mask: tf.Tensor,
  perRow: (sums: tf.Tensor, tokens: tf.Tensor) => tf.Tensor,
) {
  return tf.tidy(() => {
    const tokens = tf.sum(mask, -1); // [B]
    const sums = tf.sum(tf.mul(x, mask), -1); // [B]
    const rows = tf.cast(tf.greater(tokens, 0), 'float32'); // [B]
    return tf.div(tf.sum(tf.mul(perRow(sums, tokens), rows)), tf.maximum(tf.sum(rows), 1)) as tf.Scalar;
  });
}

/**
 * What a loss value is a mean over: the minibatch's loss tokens or its rows with loss tokens. A
 * minibatch split into micro-batches weights each piece's value by its share of these
 * (update.ts, microBatch.ts `Piece`), so the sum equals the whole minibatch's value.
 */
export type WeightBy = 'tokens' | 'rows';

/** One way of averaging per-token losses over the mask. */
export interface LossAggSpec {
  name: LossAgg;
  /** One line for the docs. */
  label: string;
  /**
   * Its value is a mean per token (of some weighting); false for a sum over each row's tokens,
   * whose entropy is then shown as the token mean instead (update.ts).
   */
  perToken: boolean;
  /** Its value is a mean over the minibatch's tokens (token-mean) or its rows (seq-mean-*). */
  weightBy: WeightBy;
  /** x [B, T] averaged over `mask` [B, T]. */
  reduce(x: tf.Tensor, mask: tf.Tensor): tf.Scalar;
}

/** The loss aggregation modes, one row each (the config's `lossAgg` switch). */
export const LOSS_AGGS: Readonly<Record<LossAgg, LossAggSpec>> = {
  'token-mean': {
    name: 'token-mean',
    label: 'Σ(x·mask)/Σmask over the minibatch (RAGEN, verl’s default)',
    perToken: true,
    weightBy: 'tokens',
    reduce: maskedMean,
  },
  'seq-mean-token-mean': {
    name: 'seq-mean-token-mean',
    label: 'each row’s token mean Σ_t(x·mask)/Σ_t mask, then the mean over rows (GRPO)',
    perToken: true,
    weightBy: 'rows',
    reduce: (x, mask) => meanOverRows(x, mask, (sums, tokens) => tf.div(sums, tf.maximum(tokens, 1))),
  },
  'seq-mean-token-sum': {
    name: 'seq-mean-token-sum',
    label: 'each row’s token sum Σ_t(x·mask), then the mean over rows, no division by length (Dr. GRPO)',
    perToken: false,
    weightBy: 'rows',
    reduce: (x, mask) => meanOverRows(x, mask, (sums) => sums),
  },
};

/** The aggregation a `lossAgg` value names. */
export function lossAggOf(mode: LossAgg): LossAggSpec {
  const a = LOSS_AGGS[mode];
  if (!a) throw new Error(`unknown loss aggregation "${mode}"`);
  return a;
}

/** x [B, T] averaged over `mask` [B, T] as `mode` says (LOSS_AGGS). */
export function aggregate(x: tf.Tensor, mask: tf.Tensor, mode: LossAgg = 'token-mean'): tf.Scalar {
  return lossAggOf(mode).reduce(x, mask);
}

export interface PolicyLossParts {
  /** The clipped surrogate loss (to minimise). */
  pgLoss: tf.Scalar;
  /** Share of masked tokens where the clipped branch was taken. */
  clipFrac: tf.Scalar;
  /** Token mean of old − new log-prob (verl's ppo_kl), the "approx KL" of the update. */
  approxKl: tf.Scalar;
}

/**
 * Per-token clipped surrogate: ratio = exp(logp − oldLogp); pgLoss1 = −A·ratio;
 * pgLoss2 = −A·clip(ratio, 1 − clipLow, 1 + clipHigh); loss = `agg` of max(pgLoss1, pgLoss2)
 * (token mean by default). clipFrac and approxKl are token means whatever `agg` (as verl).
 */
export function tokenPolicyLoss(
  logp: tf.Tensor,
  oldLogp: tf.Tensor,
  advantages: tf.Tensor,
  mask: tf.Tensor,
  clipLow: number,
  clipHigh: number,
  agg: LossAgg = 'token-mean',
): PolicyLossParts {
  return tf.tidy(() => {
    const logRatio = tf.sub(logp, oldLogp);
    const ratio = tf.exp(logRatio);
    const pgLoss1 = tf.neg(tf.mul(advantages, ratio));
    const pgLoss2 = tf.neg(tf.mul(advantages, tf.clipByValue(ratio, 1 - clipLow, 1 + clipHigh)));
    const pgLoss = aggregate(tf.maximum(pgLoss1, pgLoss2), mask, agg);
    const clipFrac = maskedMean(tf.cast(tf.greater(pgLoss2, pgLoss1), 'float32'), mask);
    const approxKl = maskedMean(tf.neg(logRatio), mask);
    return { pgLoss, clipFrac, approxKl };
  });
}

/**
 * GSPO (Zheng et al. 2025): one importance ratio per sequence (a row of the minibatch),
 * s_i = exp(Σ_t m·(logp − oldLogp) / Σ_t m), the geometric mean of its token ratios, with the
 * sequence's mean advantage A_i; loss = the mean over rows with tokens of
 * max(−A_i·s_i, −A_i·clip(s_i, 1 − clipLow, 1 + clipHigh)). clipFrac is the share of those rows
 * clipped; approxKl the token mean of old − new, as the token-level loss reports it.
 */
export function sequencePolicyLoss(
  logp: tf.Tensor,
  oldLogp: tf.Tensor,
  advantages: tf.Tensor,
  mask: tf.Tensor,
  clipLow: number,
  clipHigh: number,
): PolicyLossParts {
  return tf.tidy(() => {
    const logRatio = tf.sub(logp, oldLogp);
    const tokens = tf.sum(mask, -1); // [B]
    const per = (x: tf.Tensor) => tf.div(tf.sum(tf.mul(x, mask), -1), tf.maximum(tokens, 1)); // [B]
    const ratio = tf.exp(per(logRatio));
    const adv = per(advantages);
    const pgLoss1 = tf.neg(tf.mul(adv, ratio));
    const pgLoss2 = tf.neg(tf.mul(adv, tf.clipByValue(ratio, 1 - clipLow, 1 + clipHigh)));
    const rows = tf.cast(tf.greater(tokens, 0), 'float32');
    const rowMean = (x: tf.Tensor) =>
      tf.div(tf.sum(tf.mul(x, rows)), tf.maximum(tf.sum(rows), 1)) as tf.Scalar;
    return {
      pgLoss: rowMean(tf.maximum(pgLoss1, pgLoss2)),
      clipFrac: rowMean(tf.cast(tf.greater(pgLoss2, pgLoss1), 'float32')),
      approxKl: maskedMean(tf.neg(logRatio), mask),
    };
  });
}

/** Where the importance ratio is taken: per token, or per sequence. */
export interface RatioLevelSpec {
  name: Config['ratioLevel'];
  /** One line for the docs. */
  label: string;
  /** Its clip fraction is a share of tokens (one ratio each) or of rows (one ratio per sequence). */
  clipFracBy: WeightBy;
  /** What its surrogate loss is a mean over, given the aggregation `agg` averaging its tokens. */
  lossWeightBy(agg: LossAggSpec): WeightBy;
  /** The clipped surrogate at this level; `agg` averages a per-token loss (a sequence loss has none). */
  policyLoss(
    logp: tf.Tensor,
    oldLogp: tf.Tensor,
    advantages: tf.Tensor,
    mask: tf.Tensor,
    clipLow: number,
    clipHigh: number,
    agg: LossAgg,
  ): PolicyLossParts;
}

/** The ratio levels, one row each (the config's `ratioLevel` switch). */
export const RATIO_LEVELS: Readonly<Record<Config['ratioLevel'], RatioLevelSpec>> = {
  token: {
    name: 'token',
    label: 'one ratio per token, the loss averaged by `lossAgg` (PPO, GRPO)',
    clipFracBy: 'tokens',
    lossWeightBy: (agg) => agg.weightBy,
    policyLoss: tokenPolicyLoss,
  },
  sequence: {
    name: 'sequence',
    label: 'one ratio per sequence from its mean log-ratio, clipped per sequence, mean over sequences (GSPO)',
    clipFracBy: 'rows',
    lossWeightBy: () => 'rows',
    policyLoss: (logp, oldLogp, adv, mask, clipLow, clipHigh) =>
      sequencePolicyLoss(logp, oldLogp, adv, mask, clipLow, clipHigh),
  },
};

/** The ratio level a `ratioLevel` value names. */
export function ratioLevelOf(level: Config['ratioLevel']): RatioLevelSpec {
  const r = RATIO_LEVELS[level];
  if (!r) throw new Error(`unknown ratio level "${level}"`);
  return r;
}

/**
 * The clipped surrogate at `level` (RATIO_LEVELS): per token (`tokenPolicyLoss`, the loss
 * averaged by `agg`) or per sequence (`sequencePolicyLoss`, GSPO).
 */
export function clippedPolicyLoss(
  logp: tf.Tensor,
  oldLogp: tf.Tensor,
  advantages: tf.Tensor,
  mask: tf.Tensor,
  clipLow: number,
  clipHigh: number,
  agg: LossAgg = 'token-mean',
  level: Config['ratioLevel'] = 'token',
): PolicyLossParts {
  return ratioLevelOf(level).policyLoss(logp, oldLogp, advantages, mask, clipLow, clipHigh, agg);
}

export type KlEstimator = 'k1' | 'k3';

/**
 * Per-token KL(π‖π_ref) estimate from log-probs of the sampled tokens:
 * k1 = logp − refLogp; k3 = exp(refLogp − logp) − (refLogp − logp) − 1 (≥ 0, unbiased).
 */
export function klPerToken(logp: tf.Tensor, refLogp: tf.Tensor, estimator: KlEstimator): tf.Tensor {
  return tf.tidy(() => {
    if (estimator === 'k1') return tf.sub(logp, refLogp);
    const d = tf.sub(refLogp, logp);
    return tf.sub(tf.sub(tf.exp(d), d), 1);
  });
}

/**
 * Clipped value loss: 0.5·token mean of max((V − R)², (V_old + clip(V − V_old, ±c) − R)²).
 * With c = 0 the clip is off (plain 0.5·(V − R)²).
 */
export function clippedValueLoss(
  values: tf.Tensor,
  oldValues: tf.Tensor,
  returns: tf.Tensor,
  mask: tf.Tensor,
  clip: number,
): tf.Scalar {
  return tf.tidy(() => {
    const unclipped = tf.square(tf.sub(values, returns));
    if (clip <= 0) return tf.mul(0.5, maskedMean(unclipped, mask)) as tf.Scalar;
    const vClipped = tf.add(oldValues, tf.clipByValue(tf.sub(values, oldValues), -clip, clip));
    const clipped = tf.square(tf.sub(vClipped, returns));
    return tf.mul(0.5, maskedMean(tf.maximum(unclipped, clipped), mask)) as tf.Scalar;
  });
}

/**
 * DPO loss over pairs: −mean log σ(β·[(logπ(w) − logπ_ref(w)) − (logπ(l) − logπ_ref(l))]),
 * each argument [P] sequence log-probs summed over the agent tokens.
 * Also returns the reward margin and the share of pairs the policy ranks correctly.
 */
export function dpoLoss(
  chosenLogp: tf.Tensor,
  rejectedLogp: tf.Tensor,
  chosenRefLogp: tf.Tensor,
  rejectedRefLogp: tf.Tensor,
  beta: number,
): { loss: tf.Scalar; margin: tf.Scalar; accuracy: tf.Scalar } {
  return tf.tidy(() => {
    const chosenReward = tf.mul(beta, tf.sub(chosenLogp, chosenRefLogp));
    const rejectedReward = tf.mul(beta, tf.sub(rejectedLogp, rejectedRefLogp));
    const logits = tf.sub(chosenReward, rejectedReward);
    // −log σ(z) = softplus(−z), stable for large |z|.
    const loss = tf.mean(tf.softplus(tf.neg(logits))) as tf.Scalar;
    const margin = tf.mean(logits) as tf.Scalar;
    const accuracy = tf.mean(tf.cast(tf.greater(logits, 0), 'float32')) as tf.Scalar;
    return { loss, margin, accuracy };
  });
}
