// One importance ratio per token (PPO, GRPO; RAGEN Eq 6 with DAPO's decoupled clip-higher), the
// loss averaged by the run's `lossAgg`.
import * as tf from '@tensorflow/tfjs';
import { aggregate, type LossAgg, maskedMean } from '../lossAggs.js';
import type { PolicyLossParts, RatioLevelVariant } from './variant.js';

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

export const token: RatioLevelVariant<'token'> = {
  name: 'token',
  label: 'one ratio per token, the loss averaged by `lossAgg` (PPO, GRPO)',
  help: 'token (one ratio per token: PPO, GRPO)',
  clipFracBy: 'tokens',
  lossWeightBy: (agg) => agg.weightBy,
  policyLoss: tokenPolicyLoss,
  ragenUnmapped: [],
};
