// What one way of averaging per-token losses is (verl `loss_agg_mode`): its reduction, what its
// value is a mean over (micro-batches weight their pieces by it: rl/update.ts, rl/microBatch.ts),
// and what RAGEN can take of it. One file per aggregation beside this one; ../lossAggs.ts lists them.
import type * as tf from '@tensorflow/tfjs';

/**
 * What a loss value is a mean over: the minibatch's loss tokens or its rows with loss tokens. A
 * minibatch split into micro-batches weights each piece's value by its share of these
 * (update.ts, microBatch.ts `Piece`), so the sum equals the whole minibatch's value.
 */
export type WeightBy = 'tokens' | 'rows';

/** One way of averaging per-token losses over the mask. */
export interface LossAggVariant<Name extends string = string> {
  name: Name;
  /** One line for the docs. */
  label: string;
  /** Its clause in the setting's explanation (ui/explain/texts.ts joins them), its name first. */
  help: string;
  /** Why one would pick it, a clause of the same explanation (absent for none). */
  why?: string;
  /**
   * Its value is a mean per token (of some weighting); false for a sum over each row's tokens,
   * whose entropy is then shown as the token mean instead (update.ts).
   */
  perToken: boolean;
  /** Its value is a mean over the minibatch's tokens (token-mean) or its rows (seq-mean-*). */
  weightBy: WeightBy;
  /** x [B, T] averaged over `mask` [B, T]. */
  reduce(x: tf.Tensor, mask: tf.Tensor): tf.Scalar;
  /** RAGEN v1's actor takes it (it has no switch and always takes a token mean). */
  ragenV1: boolean;
}
