// The policy losses, one row each (the config's `policyLoss` switch; names in policyLossSpecs.ts):
// the clipped surrogate, and the two entropy-mechanism losses of Cui et al. 2025 as verl ships
// them (core_algos.py compute_policy_loss_clip_cov / _kl_cov), on the tokens covSelect.ts picks:
// - clip-cov: the clipped surrogate, its per-token loss multiplied by 0 on the selected tokens
//   (their gradient detached; they still count in the mean's denominator, as in verl);
// - kl-cov: the unclipped surrogate −A·r, plus β·|log π − log π_old| on the selected tokens.
// Coefficients as verl and the paper's 7B recipes set them: Clip-Cov share 2e-4 in (1, 5), KL-Cov
// share 2e-3 with β 1 (config.ts). Each row also names its verl loss_mode for the exporter.
import * as tf from '@tensorflow/tfjs';
import type { Config } from '../config.js';
import type { Rng } from '../rng.js';
import { aggregate, type LossAgg, maskedMean } from '../variants/lossAggs.js';
import { clippedPolicyLoss, type PolicyLossParts } from '../variants/ratioLevels.js';
import { type CovInputs, clipCovSelection, klCovSelection } from './covSelect.js';
import { type PolicyLossName, SELECTS_BY_COVARIANCE } from './policyLossSpecs.js';

/** The settings a policy loss reads (config fields, as named there). */
export type PolicyLossSettings = Pick<
  Config,
  | 'clipLow'
  | 'clipHigh'
  | 'ratioLevel'
  | 'clipCovRatio'
  | 'clipCovLow'
  | 'clipCovHigh'
  | 'klCovRatio'
  | 'klCovCoef'
>;

/** One step's per-token tensors [b, T−1]; `selected` is 1 on the tokens the rule picked. */
export interface PolicyLossTensors {
  logp: tf.Tensor;
  oldLogp: tf.Tensor;
  advantages: tf.Tensor;
  mask: tf.Tensor;
  selected: tf.Tensor | null;
}

export interface PolicyLossSpec {
  name: PolicyLossName;
  /** One line for the docs. */
  label: string;
  /** verl's actor_rollout_ref.actor.policy_loss.loss_mode. */
  verlMode: string;
  /** It picks tokens by covariance before the step (covSelect.ts). */
  selects: boolean;
  /** The tokens it acts on, from the step's starting log-probs (null: none). */
  select(x: CovInputs, s: PolicyLossSettings, rng: Rng | null): Float32Array | null;
  /** The loss and its parts, the per-token loss averaged by `agg`. */
  loss(t: PolicyLossTensors, s: PolicyLossSettings, agg: LossAgg): PolicyLossParts;
}

function needRng(rng: Rng | null): Rng {
  if (!rng) throw new Error('clip-cov draws its tokens from the run’s random streams: pass the step an Rng');
  return rng;
}

export const POLICY_LOSSES: Readonly<Record<PolicyLossName, PolicyLossSpec>> = {
  clip: {
    name: 'clip',
    label:
      'the clipped surrogate max(−A·r, −A·clip(r, 1 − ε_low, 1 + ε_high)), per token or per sequence (PPO, GRPO, GSPO)',
    verlMode: 'vanilla',
    selects: SELECTS_BY_COVARIANCE.clip,
    select: () => null,
    loss: (t, s, agg) =>
      clippedPolicyLoss(t.logp, t.oldLogp, t.advantages, t.mask, s.clipLow, s.clipHigh, agg, s.ratioLevel),
  },
  'clip-cov': {
    name: 'clip-cov',
    label:
      'the clipped surrogate with the gradient of a random few high-covariance tokens detached (Clip-Cov)',
    verlMode: 'clip_cov',
    selects: SELECTS_BY_COVARIANCE['clip-cov'],
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
  },
  'kl-cov': {
    name: 'kl-cov',
    label: 'the unclipped surrogate −A·r plus β·|log r| on the top-covariance tokens (KL-Cov)',
    verlMode: 'kl_cov',
    selects: SELECTS_BY_COVARIANCE['kl-cov'],
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
  },
};

/** The row a `policyLoss` value names. */
export function policyLossOf(name: PolicyLossName): PolicyLossSpec {
  const p = POLICY_LOSSES[name];
  if (!p) throw new Error(`unknown policy loss "${name}"`);
  return p;
}
