// GSPO (Zheng et al. 2025): one importance ratio per sequence, clipped per sequence, the loss a
// mean over sequences.
import * as tf from '@tensorflow/tfjs';
import { maskedMean } from '../lossAggs.js';
import type { PolicyLossParts, RatioLevelVariant } from './variant.js';

/**
 * One ratio per sequence (a row of the minibatch), s_i = exp(Σ_t m·(logp − oldLogp) / Σ_t m), the
 * geometric mean of its token ratios, with the sequence's mean advantage A_i; loss = the mean over
 * rows with tokens of max(−A_i·s_i, −A_i·clip(s_i, 1 − clipLow, 1 + clipHigh)). clipFrac is the
 * share of those rows clipped; approxKl the token mean of old − new, as the token-level loss reports it.
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

export const sequence: RatioLevelVariant<'sequence'> = {
  name: 'sequence',
  label: 'one ratio per sequence from its mean log-ratio, clipped per sequence, mean over sequences (GSPO)',
  help: 'sequence (once per sequence, the geometric mean of its token ratios, clipped per sequence: GSPO)',
  why: 'GSPO argues that token ratios are noisy estimates for a reward given to the whole sequence, and that clipping them one by one destabilises training; one ratio per sequence matches the reward’s unit',
  clipFracBy: 'rows',
  lossWeightBy: () => 'rows',
  policyLoss: (logp, oldLogp, adv, mask, clipLow, clipHigh) =>
    sequencePolicyLoss(logp, oldLogp, adv, mask, clipLow, clipHigh),
  ragenUnmapped: [
    "ratioLevel sequence (GSPO): RAGEN's actor takes the token-level clipped loss in both versions; verl selects GSPO with actor_rollout_ref.actor.policy_loss.loss_mode gspo, which RAGEN's own actor does not read",
  ],
};
