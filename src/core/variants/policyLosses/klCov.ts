// KL-Cov (Cui et al. 2025, verl core_algos.py compute_policy_loss_kl_cov): the unclipped
// surrogate −A·r, plus β·|log π − log π_old| on the tokens of highest covariance. verl's and the
// paper's 7B recipe: share 2e-3 with β 1 (config.ts).
import * as tf from '@tensorflow/tfjs';
import { aggregate, maskedMean } from '../lossAggs.js';
import { klCovSelection } from './covSelect.js';
import type { PolicyLossVariant } from './variant.js';

export const klCov: PolicyLossVariant<'kl-cov'> = {
  name: 'kl-cov',
  label: 'the unclipped surrogate −A·r plus β·|log r| on the top-covariance tokens (KL-Cov)',
  help: 'kl-cov (KL-Cov drops the ratio clip and adds a KL penalty |log π − log π_old| on the tokens of highest covariance)',
  verlMode: 'kl_cov',
  selects: true,
  select: (x, s) => klCovSelection(x, s.klCovRatio),
  loss: (t, s, agg) =>
    tf.tidy(() => {
      const logRatio = tf.sub(t.logp, t.oldLogp);
      const pg = tf.neg(tf.mul(t.advantages, tf.exp(logRatio)));
      const penalty = t.selected
        ? tf.mul(s.klCovCoef, tf.mul(t.selected, tf.abs(logRatio)))
        : tf.zerosLike(pg);
      return {
        pgLoss: aggregate(tf.add(pg, penalty), t.mask, agg),
        // Nothing is clipped: the loss has no ratio clip.
        clipFrac: maskedMean(tf.zerosLike(t.mask), t.mask),
        approxKl: maskedMean(tf.neg(logRatio), t.mask),
      };
    }),
};
