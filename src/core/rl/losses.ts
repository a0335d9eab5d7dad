// The losses of one update beside the policy's surrogate, as tfjs ops over [B, T] tensors (B =
// trajectories, T = tokens): KL to the reference per token with the k1 and k3 estimators
// (Schulman, "Approximating KL divergence"); the clipped value loss
// (verl: 0.5·max((V−R)², (clip(V, V_old ± c) − R)²)); DPO (Rafailov et al. 2023, Eq 7) on sequence
// log-probs against the reference. The clipped surrogate is a ratio level's
// (core/variants/ratioLevels/), averaged by a loss aggregation (core/variants/lossAggs/).
// Names follow cleanrl's ppo.py. Callers own the returned tensors (or run inside tf.tidy).
import * as tf from '@tensorflow/tfjs';
import { maskedMean } from '../variants/lossAggs.js';

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
