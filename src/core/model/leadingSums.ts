// Sums over a tensor's leading axes — a bias's gradient (the rows of dy added up), LayerNorm's
// dγ and dβ, the position table's gradient over the batch — on wasm as one pass over the rows
// (wasmKernels.ts StarpoLeadingSums). tfjs-wasm's Sum over leading axes first transposes its
// input: ~17 ms for the MLP's [6144, 256] bias gradient. Both add the rows one after another
// in row order, each sum rounded to float32, so they give the same bits: leadingSums.test.ts
// checks that at the update's shapes. (A product with a row of ones adds in the same order too,
// but XNNPACK packs its fresh right operand on every call, which cost as much as the Sum.)
// Other backends keep tf.sum.
import * as tf from '@tensorflow/tfjs';
import { leadingSumsWasm } from './wasmKernels.js';

/** x summed over its first `x.rank − keep` axes: [..., ...rest] -> rest (the last `keep` axes). */
export function leadingSums(x: tf.Tensor, keep: number): tf.Tensor {
  const lead = x.rank - keep;
  if (lead <= 0) return x;
  const rest = x.shape.slice(lead);
  if (tf.getBackend() !== 'wasm') return x.sum(Array.from({ length: lead }, (_, i) => i));
  return tf.tidy(() => {
    const R = x.shape.slice(0, lead).reduce((a, b) => a * b, 1);
    const C = rest.reduce((a, b) => a * b, 1);
    return leadingSumsWasm(x.reshape([R, C]) as tf.Tensor2D).reshape(rest);
  });
}

/**
 * y + b, b broadcast over y's leading axes (a bias [O] on [N, O], a table [T, D] on [B, T, D]):
 * the same sum as y.add(b), its gradient for b taken by leadingSums (tf.add's takes tf.sum).
 */
export const addBias = tf.customGrad(((y: tf.Tensor, b: tf.Tensor) => {
  return {
    value: y.add(b),
    gradFunc: (dy: tf.Tensor) => [dy, leadingSums(dy, b.rank).reshape(b.shape)],
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (y: tf.Tensor, b: tf.Tensor) => tf.Tensor;
