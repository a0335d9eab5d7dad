// Matrix products for the model. tfjs-wasm multiplies with a transposed operand (its
// transposeA/transposeB flags, which tf.matMul's own gradient always uses) 15–40× slower than
// a plain product on our models' shapes — measured on the nano model: [2048, 64]·[256, 64]ᵀ
// takes ~100 ms against 3–7 ms for [2048, 64]·[64, 256], and attention's q·kᵀ ~150 ms. So on
// wasm `matMulFast` transposes the operand explicitly (a cheap copy) and its gradient is built
// from plain products too. Other backends take tf.matMul as it is (on webgpu an extra transpose
// is one more dispatch for nothing).
import * as tf from '@tensorflow/tfjs';

/** Swaps the last two axes: [..., M, N] -> [..., N, M]. */
function swapLast(t: tf.Tensor): tf.Tensor {
  const perm = Array.from({ length: t.rank }, (_, i) => i);
  perm[t.rank - 2] = t.rank - 1;
  perm[t.rank - 1] = t.rank - 2;
  return tf.transpose(t, perm);
}

/** a·b with both operands already laid out [..., M, K]·[..., K, N]; gradients as plain products. */
const plainProduct = tf.customGrad(((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: tf.matMul(a, b),
    // dA = dY·Bᵀ, dB = Aᵀ·dY, each with the transpose done first.
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved as [tf.Tensor, tf.Tensor];
      return [tf.matMul(dy, swapLast(sb)), tf.matMul(swapLast(sa), dy)];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (a: tf.Tensor, b: tf.Tensor) => tf.Tensor;

/**
 * tf.matMul(a, b, transposeA, transposeB) with the same value and gradients, fast on wasm.
 * Operands of equal batch shape (rank 2 to 4).
 */
export function matMulFast<R extends tf.Rank>(
  a: tf.Tensor<R>,
  b: tf.Tensor<R>,
  transposeA = false,
  transposeB = false,
): tf.Tensor<R> {
  if (tf.getBackend() !== 'wasm') return tf.matMul(a, b, transposeA, transposeB) as tf.Tensor<R>;
  return tf.tidy(
    () => plainProduct(transposeA ? swapLast(a) : a, transposeB ? swapLast(b) : b) as tf.Tensor<R>,
  );
}
