// The loss aggregations, one file each under lossAggs/ (what one is: lossAggs/variant.ts). The list
// is the `lossAgg` options in the form's order; config.ts, the policy step (rl/update.ts), the
// ratio levels and the RAGEN exporter read the rows from here. A new aggregation is one file
// beside the others and one line in LOSS_AGG_VARIANTS.
import type * as tf from '@tensorflow/tfjs';
import { seqMeanTokenMean } from './lossAggs/seqMeanTokenMean.js';
import { seqMeanTokenSum } from './lossAggs/seqMeanTokenSum.js';
import { tokenMean } from './lossAggs/tokenMean.js';
import type { LossAggVariant } from './lossAggs/variant.js';
import { byName, namesOf, rowOf } from './registry.js';

export const LOSS_AGG_VARIANTS = [tokenMean, seqMeanTokenMean, seqMeanTokenSum] as const;

/** How per-token losses are averaged (verl `loss_agg_mode`). */
export type LossAgg = (typeof LOSS_AGG_VARIANTS)[number]['name'];

/** The `lossAgg` options, in the form's order. */
export const LOSS_AGG_NAMES = namesOf(LOSS_AGG_VARIANTS);

/** Each aggregation by its name. */
export const LOSS_AGGS = byName(LOSS_AGG_VARIANTS);

/** The aggregation a `lossAgg` value names. */
export function lossAggOf(mode: LossAgg): LossAggVariant {
  return rowOf(LOSS_AGGS, mode, 'loss aggregation');
}

/** x [B, T] averaged over `mask` [B, T] as `mode` says. */
export function aggregate(x: tf.Tensor, mask: tf.Tensor, mode: LossAgg = 'token-mean'): tf.Scalar {
  return lossAggOf(mode).reduce(x, mask);
}

export { maskedMean } from './lossAggs/means.js';
export type { LossAggVariant, WeightBy } from './lossAggs/variant.js';
