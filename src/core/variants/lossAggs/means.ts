// Means over a loss mask as tfjs ops over [B, T] tensors (B = rows, T = tokens): the token mean,
// and the mean over rows of a per-row quantity, which the aggregation rows are made of.
import * as tf from '@tensorflow/tfjs';

/** Σ(x·mask)/max(Σmask, 1): the token mean over masked positions. */
export function maskedMean(x: tf.Tensor, mask: tf.Tensor): tf.Scalar {
  return tf.tidy(() => tf.div(tf.sum(tf.mul(x, mask)), tf.maximum(tf.sum(mask), 1)) as tf.Scalar);
}

/**
 * The mean over rows with any masked token of `perRow(Σ_t x·mask, Σ_t mask)` [B] (rows with none
 * are left out).
 */
export function meanOverRows(
  x: tf.Tensor,
  mask: tf.Tensor,
  perRow: (sums: tf.Tensor, tokens: tf.Tensor) => tf.Tensor,
): tf.Scalar {
  return tf.tidy(() => {
    const tokens = tf.sum(mask, -1); // [B]
    const sums = tf.sum(tf.mul(x, mask), -1); // [B]
    const rows = tf.cast(tf.greater(tokens, 0), 'float32'); // [B]
    return tf.div(tf.sum(tf.mul(perRow(sums, tokens), rows)), tf.maximum(tf.sum(rows), 1)) as tf.Scalar;
  });
}
