// The losses of one update, as tfjs ops over [B, T] tensors (B = trajectories, T = tokens),
// all averaged per token over the loss mask ("token-mean", RAGEN/verl `agg_loss`):
// - clipped surrogate with decoupled ε_low / ε_high (RAGEN Eq 6, DAPO clip-higher);
// - entropy bonus; KL to the reference with the k1 and k3 estimators (Schulman, "Approximating
//   KL divergence"); clipped value loss (verl: 0.5·max((V−R)², (clip(V, V_old ± c) − R)²));
// - DPO (Rafailov et al. 2023, Eq 7) on sequence log-probs against the reference.
// Names follow cleanrl's ppo.py. Callers own the returned tensors (or run inside tf.tidy).
import * as tf from '@tensorflow/tfjs';

/** Σ(x·mask)/max(Σmask, 1): the token mean over masked positions. */
export function maskedMean(x: tf.Tensor, mask: tf.Tensor): tf.Scalar {
  return tf.tidy(() => tf.div(tf.sum(tf.mul(x, mask)), tf.maximum(tf.sum(mask), 1)) as tf.Scalar);
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
 * Clipped surrogate: ratio = exp(logp − oldLogp); pgLoss1 = −A·ratio;
 * pgLoss2 = −A·clip(ratio, 1 − clipLow, 1 + clipHigh); loss = token mean of max(pgLoss1, pgLoss2).
 */
export function clippedPolicyLoss(
  logp: tf.Tensor,
  oldLogp: tf.Tensor,
  advantages: tf.Tensor,
  mask: tf.Tensor,
  clipLow: number,
  clipHigh: number,
): PolicyLossParts {
  return tf.tidy(() => {
    const logRatio = tf.sub(logp, oldLogp);
    const ratio = tf.exp(logRatio);
    const pgLoss1 = tf.neg(tf.mul(advantages, ratio));
    const pgLoss2 = tf.neg(tf.mul(advantages, tf.clipByValue(ratio, 1 - clipLow, 1 + clipHigh)));
    const pgLoss = maskedMean(tf.maximum(pgLoss1, pgLoss2), mask);
    const clipFrac = maskedMean(tf.cast(tf.greater(pgLoss2, pgLoss1), 'float32'), mask);
    const approxKl = maskedMean(tf.neg(logRatio), mask);
    return { pgLoss, clipFrac, approxKl };
  });
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
