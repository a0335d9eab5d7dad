// What one ratio level is: where the importance ratio π/π_old is taken (per token, or per
// sequence), its clipped surrogate, what that loss and its clip fraction are means over, and what
// RAGEN's actor cannot take of it. One file per level beside this one; ../ratioLevels.ts lists them.
import type * as tf from '@tensorflow/tfjs';
import type { LossAgg, LossAggVariant, WeightBy } from '../lossAggs.js';

export interface PolicyLossParts {
  /** The clipped surrogate loss (to minimise). */
  pgLoss: tf.Scalar;
  /** Share of masked tokens where the clipped branch was taken. */
  clipFrac: tf.Scalar;
  /** Token mean of old − new log-prob (verl's ppo_kl), the "approx KL" of the update. */
  approxKl: tf.Scalar;
}

/** Where the importance ratio is taken: per token, or per sequence. */
export interface RatioLevelVariant<Name extends string = string> {
  name: Name;
  /** One line for the docs. */
  label: string;
  /** Its clause in the setting's explanation (ui/explain/texts.ts joins them), its name first. */
  help: string;
  /** Why one would pick it, a clause of the same explanation (absent for none). */
  why?: string;
  /** Its clip fraction is a share of tokens (one ratio each) or of rows (one ratio per sequence). */
  clipFracBy: WeightBy;
  /** What its surrogate loss is a mean over, given the aggregation `agg` averaging its tokens. */
  lossWeightBy(agg: LossAggVariant): WeightBy;
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
  /** What RAGEN's actor cannot take of it, as unmapped lines (both versions). */
  ragenUnmapped: string[];
}
