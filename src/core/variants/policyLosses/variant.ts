// What one policy loss is: its token selection before a step (none, or by covariance:
// covSelect.ts), its loss and parts, and its verl loss_mode for the exporter. One file per loss
// beside this one; ../policyLosses.ts lists them. The clipped surrogate itself is a ratio
// level's (../ratioLevels/), its per-token loss averaged by a loss aggregation (../lossAggs/).
import type * as tf from '@tensorflow/tfjs';
import type { Rng } from '../../rng.js';
import type { LossAgg } from '../lossAggs.js';
import type { PolicyLossParts, RatioLevel } from '../ratioLevels.js';
import type { CovInputs } from './covSelect.js';

/** The settings a policy loss reads (config fields, as core/config.ts names them). */
export interface PolicyLossSettings {
  clipLow: number;
  clipHigh: number;
  ratioLevel: RatioLevel;
  clipCovRatio: number;
  clipCovLow: number;
  clipCovHigh: number;
  klCovRatio: number;
  klCovCoef: number;
}

/** One step's per-token tensors [b, T−1]; `selected` is 1 on the tokens the rule picked. */
export interface PolicyLossTensors {
  logp: tf.Tensor;
  oldLogp: tf.Tensor;
  advantages: tf.Tensor;
  mask: tf.Tensor;
  selected: tf.Tensor | null;
}

export interface PolicyLossVariant<Name extends string = string> {
  name: Name;
  /** One line for the docs. */
  label: string;
  /** Its clause in the setting's explanation (ui/explain/texts.ts joins them), its name first. */
  help: string;
  /** Why one would pick it, a clause of the same explanation (absent for none). */
  why?: string;
  /** verl's actor_rollout_ref.actor.policy_loss.loss_mode. */
  verlMode: string;
  /** It picks tokens by covariance before the step (covSelect.ts); it then needs one ratio per token. */
  selects: boolean;
  /** The tokens it acts on, from the step's starting log-probs (null: none). */
  select(x: CovInputs, s: PolicyLossSettings, rng: Rng | null): Float32Array | null;
  /** The loss and its parts, the per-token loss averaged by `agg`. */
  loss(t: PolicyLossTensors, s: PolicyLossSettings, agg: LossAgg): PolicyLossParts;
}
