// The ratio levels, one file each under ratioLevels/ (what one is: ratioLevels/variant.ts). The
// list is the `ratioLevel` options in the form's order; config.ts, the policy step (rl/update.ts),
// the covariance losses and the RAGEN exporter read the rows from here. A new level is one file
// beside the others and one line in RATIO_LEVEL_VARIANTS.
import type * as tf from '@tensorflow/tfjs';
import type { LossAgg } from './lossAggs.js';
import { sequence } from './ratioLevels/sequence.js';
import { token } from './ratioLevels/token.js';
import type { PolicyLossParts, RatioLevelVariant } from './ratioLevels/variant.js';
import { byName, namesOf, rowOf } from './registry.js';

export const RATIO_LEVEL_VARIANTS = [token, sequence] as const;

export type RatioLevel = (typeof RATIO_LEVEL_VARIANTS)[number]['name'];

/** The `ratioLevel` options, in the form's order. */
export const RATIO_LEVEL_NAMES = namesOf(RATIO_LEVEL_VARIANTS);

/** Each ratio level by its name. */
export const RATIO_LEVELS = byName(RATIO_LEVEL_VARIANTS);

/** The ratio level a `ratioLevel` value names. */
export function ratioLevelOf(level: RatioLevel): RatioLevelVariant {
  return rowOf(RATIO_LEVELS, level, 'ratio level');
}

/**
 * The clipped surrogate at `level`: per token (the loss averaged by `agg`) or per sequence (GSPO).
 */
export function clippedPolicyLoss(
  logp: tf.Tensor,
  oldLogp: tf.Tensor,
  advantages: tf.Tensor,
  mask: tf.Tensor,
  clipLow: number,
  clipHigh: number,
  agg: LossAgg = 'token-mean',
  level: RatioLevel = 'token',
): PolicyLossParts {
  return ratioLevelOf(level).policyLoss(logp, oldLogp, advantages, mask, clipLow, clipHigh, agg);
}

export { sequencePolicyLoss } from './ratioLevels/sequence.js';
export { tokenPolicyLoss } from './ratioLevels/token.js';
export type { PolicyLossParts, RatioLevelVariant } from './ratioLevels/variant.js';
