// Matrix products for the model. tfjs-wasm multiplies with a transposed operand (its
// transposeA/transposeB flags, which tf.matMul's own gradient always uses) 15–40× slower than
// a plain product on our models' shapes — measured on the nano model: [2048, 64]·[256, 64]ᵀ
// takes ~100 ms against 3–7 ms for [2048, 64]·[64, 256], and attention's q·kᵀ ~150 ms. So on
// wasm `matMulFast` transposes the operand explicitly (a cheap copy) and its gradient is built
// from plain products too. Other backends take tf.matMul as it is (on webgpu an extra transpose
// is one more dispatch for nothing).
//
// Batched products are the other wasm trap: tfjs-wasm runs any product with a batch size above 1
// through a scalar loop (~2 GFLOP/s, against ~20 for its XNNPACK 2-D product), and tf.slice
// costs ~0.5 ms a call there. Attention's [B·H, T, d] products were 2/3 of a nano training
// step. So `product` splits a batched product into 2-D XNNPACK products when each is big enough
// to pay for its call (measured: 92 products of [128, 16]·[16, 128] take 29 ms batched, 4–8 ms
// split), in place in the wasm heap through wasmKernels.ts's strided kernel, and only when wasm
// is the active backend: never a read-back from a GPU. Weight gradients transpose the narrower
// of their two operands (leftTransposed: a transpose of the wide one costs more than packing
// it) and a·bᵀ has its own gradient, so no transpose is made twice.
import * as tf from '@tensorflow/tfjs';
import { installWasmKernels, STRIDED_MATMUL } from './wasmKernels.js';

/** Below this many multiply-adds per batch entry, one call costs more than the scalar loop. */
const LOOP_MIN_MACS = 1 << 16;

/** a·b for [..., M, K]·[..., K, N] of equal batch shape; split into 2-D products on wasm. */
function product(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  const batchShape = a.shape.slice(0, -2);
  const batch = batchShape.reduce((x, y) => x * y, 1);
  const M = a.shape[a.rank - 2] as number;
  const K = a.shape[a.rank - 1] as number;
  const N = b.shape[b.rank - 1] as number;
  if (tf.getBackend() !== 'wasm' || batch === 1 || M * K * N < LOOP_MIN_MACS) return tf.matMul(a, b);
  installWasmKernels();
  return tf.tidy(() => {
    const a3 = a.reshape([batch, M, K]);
    const b3 = b.reshape([batch, K, N]);
    const out = tf.engine().runKernel(STRIDED_MATMUL, { a: a3, b: b3 }, {}) as tf.Tensor;
    return out.reshape([...batchShape, M, N]);
  });
}

/** Swaps the last two axes: [..., M, N] -> [..., N, M]. */
function swapLast(t: tf.Tensor): tf.Tensor {
  const perm = Array.from({ length: t.rank }, (_, i) => i);
  perm[t.rank - 2] = t.rank - 1;
  perm[t.rank - 1] = t.rank - 2;
  return tf.transpose(t, perm);
}

/**
 * xᵀ·y for x [..., R, I] and y [..., R, O], with `choose`, as (yᵀ·x)ᵀ where that costs less.
 * 2-D (a weight's gradient, R ≫ I, O): the transpose of the wide operand costs more than the
 * product (tfjs-wasm's Transpose of the MLP's [6144, 256] took ~17 ms, of a [6144, 64] ~3, the
 * product 13-21), so the narrower one is transposed and the wide one goes right, where XNNPACK
 * packs it. Batched (attention's heads, a [T, T] operand beside a [T, K] one): XNNPACK's
 * per-head packing weighs more, so the narrower goes right. Either way each entry is
 * Σ_r x[r, i]·y[r, o] added in the order of r: the same bits.
 */
function leftTransposed(x: tf.Tensor, y: tf.Tensor, choose: boolean): tf.Tensor {
  const [I, O] = [x.shape[x.rank - 1] as number, y.shape[y.rank - 1] as number];
  const flip = x.rank === 2 ? O < I : O > I;
  return choose && flip ? swapLast(product(swapLast(y), x)) : product(swapLast(x), y);
}

/** A weight's gradient Aᵀ·dY (the order chosen for 2-D A). */
function weightGradient(a: tf.Tensor, dy: tf.Tensor): tf.Tensor {
  return leftTransposed(a, dy, a.rank === 2);
}

/** a·b with both operands already laid out [..., M, K]·[..., K, N]; gradients as plain products. */
const plainProduct = tf.customGrad(((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: product(a, b),
    // dA = dY·Bᵀ, dB = Aᵀ·dY, each with the transpose done first.
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved as [tf.Tensor, tf.Tensor];
      return [product(dy, swapLast(sb)), weightGradient(sa, dy)];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (a: tf.Tensor, b: tf.Tensor) => tf.Tensor;

/**
 * a·bᵀ for [..., M, K]·[..., N, K], the transpose done once in the forward: dA = dY·B needs none,
 * and dB = dYᵀ·A (or (Aᵀ·dY)ᵀ, as leftTransposed chooses). Through plainProduct
 * the same gradient took a transpose of B back and forth and, for attention's q·kᵀ, a product
 * whose right operand was the [T, T] score gradient.
 */
const productTransposedB = tf.customGrad(((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: product(a, swapLast(b)),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved as [tf.Tensor, tf.Tensor];
      return [product(dy, sb), leftTransposed(dy, sa, true)];
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
  if (transposeB && !transposeA) return tf.tidy(() => productTransposedB(a, b) as tf.Tensor<R>);
  return tf.tidy(
    () => plainProduct(transposeA ? swapLast(a) : a, transposeB ? swapLast(b) : b) as tf.Tensor<R>,
  );
}
