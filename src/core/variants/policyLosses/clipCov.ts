// Clip-Cov (Cui et al. 2025, verl core_algos.py compute_policy_loss_clip_cov): the clipped
// surrogate, its per-token loss multiplied by 0 on a random few tokens whose covariance lies in a
// band (their gradient detached; they still count in the mean's denominator, as in verl). verl's
// and the paper's 7B recipe: share 2e-4 in (1, 5) (config.ts).
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../../rng.js';
import { aggregate, maskedMean } from '../lossAggs.js';
import { clipCovSelection } from './covSelect.js';
import type { PolicyLossVariant } from './variant.js';

function needRng(rng: Rng | null): Rng {
  if (!rng) throw new Error('clip-cov draws its tokens from the run’s random streams: pass the step an Rng');
  return rng;
}

export const clipCov: PolicyLossVariant<'clip-cov'> = {
  name: 'clip-cov',
  label: 'the clipped surrogate with the gradient of a random few high-covariance tokens detached (Clip-Cov)',
  help: 'clip-cov (Clip-Cov detaches the gradient of a random few tokens whose covariance between log-probability and advantage lies in a band)',
  verlMode: 'clip_cov',
  selects: true,
  select: (x, s, rng) =>
    clipCovSelection(
      x,
      {
        share: s.clipCovRatio,
        low: s.clipCovLow,
        high: s.clipCovHigh,
        clipLow: s.clipLow,
        clipHigh: s.clipHigh,
      },
      needRng(rng),
    ),
  loss: (t, s, agg) =>
    tf.tidy(() => {
      const logRatio = tf.sub(t.logp, t.oldLogp);
      const ratio = tf.exp(logRatio);
      const pg1 = tf.neg(tf.mul(t.advantages, ratio));
      const pg2 = tf.neg(tf.mul(t.advantages, tf.clipByValue(ratio, 1 - s.clipLow, 1 + s.clipHigh)));
      const keep = t.selected ? tf.sub(1, t.selected) : tf.onesLike(t.mask);
      return {
        pgLoss: aggregate(tf.mul(tf.maximum(pg1, pg2), keep), t.mask, agg),
        clipFrac: maskedMean(tf.cast(tf.greater(pg2, pg1), 'float32'), t.mask),
        approxKl: maskedMean(tf.neg(logRatio), t.mask),
      };
    }),
};
