// Differentiable row selection for every backend (tfjs-wasm has no gradient for gather): pick
// rows with a gather whose gradient is a scatter-add, and put values back at positions with a
// scatter whose gradient is a gather. The embedding lookup, the SFT loss's target rows and the
// RL losses' masked rows use them (on wasm the gather is row copies, wasmKernels.ts), so the
// LM head and the one-hot product never run over rows nothing reads. Index tensors are saved
// for the gradient (they may be made inside the loss).
import * as tf from '@tensorflow/tfjs';
import { gatherRowsWasm } from './wasmKernels.js';

/**
 * Rows `idx` [M] (int32) of `x` [N, D] -> [M, D], no gradient: tf.gather, or on wasm row copies
 * (tfjs-wasm's GatherV2 computes an index per element). The caller disposes.
 */
export function gatherRows(x: tf.Tensor2D, idx: tf.Tensor1D): tf.Tensor2D {
  return tf.getBackend() === 'wasm' ? gatherRowsWasm(x, idx) : tf.gather(x, idx);
}

/**
 * Rows `idx` [M] of `x` [N, D] -> [M, D], differentiable on every backend: the gradient
 * scatter-adds dy into [N, D] (tfjs-wasm has no gradient for gather).
 */
export function selectRows(x: tf.Tensor2D, idx: tf.Tensor1D): tf.Tensor2D {
  const [N, D] = x.shape;
  const f = tf.customGrad(((xv: tf.Tensor2D, save: tf.GradSaveFunc) => {
    save([idx]); // kept for the gradient, also when idx was made inside the gradient function
    return {
      value: gatherRows(xv, idx),
      gradFunc: (dy: tf.Tensor, [i]: tf.Tensor[]) =>
        tf.scatterND((i as tf.Tensor).reshape([-1, 1]), dy, [N, D]),
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(x) as tf.Tensor2D;
}

/**
 * `values` [M] placed at flat positions `idx` [M] of a zero [N] vector, differentiable: the
 * gradient reads dy back at `idx` (the inverse of selectRows).
 */
export function spreadRows(values: tf.Tensor1D, idx: tf.Tensor1D, N: number): tf.Tensor1D {
  const f = tf.customGrad(((v: tf.Tensor1D, save: tf.GradSaveFunc) => {
    save([idx]);
    return {
      value: tf.scatterND(idx.reshape([-1, 1]), v, [N]),
      gradFunc: (dy: tf.Tensor, [i]: tf.Tensor[]) => tf.gather(dy, i as tf.Tensor),
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(values) as tf.Tensor1D;
}
