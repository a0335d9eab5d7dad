// LayerNorm and GELU as tfjs ops, for every backend but fused WebGPU (kernels/ has those):
// nanoGPT's LayerNorm (ε = 1e-5) and GPT-2's tanh GELU. On wasm the GELU goes through sigmoid
// (tfjs-wasm's Tanh is a scalar loop), and both carry their gradients written out, checked
// against tfjs's autodiff of the same forward ops (elementwise.test.ts). Every function
// returns new tensors; callers run them inside tf.tidy or a gradient.
import * as tf from '@tensorflow/tfjs';
import { leadingSums } from './leadingSums.js';
import { geluGateWasm, layerNormWasm, onePass } from './wasmInference.js';

/** nanoGPT's LayerNorm ε. */
export const LN_EPSILON = 1e-5;

/**
 * LayerNorm for inference (no gradient): on wasm, for a decoding step's few rows, one pass a row
 * (wasmInference.ts StarpoLayerNorm, the same bits as the ops below, in 1 kernel for ~10);
 * otherwise layerNorm's ops.
 */
export function layerNormInference(x: tf.Tensor, g: tf.Tensor, b: tf.Tensor): tf.Tensor {
  return onePass(x.size) ? layerNormWasm(x, g, b, LN_EPSILON) : layerNorm(x, g, b);
}

/**
 * LayerNorm as tfjs ops, differentiated by tfjs's autodiff: the reference the written gradient
 * below and the fused WebGPU kernel are checked against.
 */
export function layerNormAutodiff(x: tf.Tensor, g: tf.Tensor, b: tf.Tensor): tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  return x
    .sub(mean)
    .mul(tf.rsqrt(variance.add(LN_EPSILON)))
    .mul(g)
    .add(b);
}

/**
 * LayerNorm with its gradient written out: the same forward ops, and a backward of ~11 kernels
 * where tfjs's autodiff of the ops above runs ~35 (each broadcast op adds a reduction):
 * x̂ = (x − μ)·r, r = 1/√(σ² + ε); dx = r·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂)), dx̂ = dy·g;
 * dg = Σ dy·x̂ and db = Σ dy over every axis but the last (leadingSums.ts).
 */
export const layerNorm = tf.customGrad(((x: tf.Tensor, g: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  const { mean, variance } = tf.moments(x, -1, true);
  const r = tf.rsqrt(variance.add(LN_EPSILON));
  const xhat = x.sub(mean).mul(r);
  save([xhat, r, g]);
  return {
    value: xhat.mul(g).add(b),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sr, sg] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
      const dxhat = dy.mul(sg);
      const dx = dxhat
        .sub(dxhat.mean(-1, true))
        .sub(sx.mul(dxhat.mul(sx).mean(-1, true)))
        .mul(sr);
      return [dx, leadingSums(dy.mul(sx), 1), leadingSums(dy, 1)];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (
  x: tf.Tensor,
  g: tf.Tensor,
  b: tf.Tensor,
) => tf.Tensor;

// 0.5·x·(1 + tanh z) = x·σ(u), z = √(2/π)·(x + 0.044715·x³), u = 2z = (c·a·x² + c)·x with
// c = 2√(2/π), a = 0.044715: tfjs-wasm's Tanh is a scalar loop ~25× slower than its Sigmoid
// (1M values: ~110 ms against ~4.4 ms on a 2-core machine), and the form saves two
// element-wise ops. Values agree with the tanh form to ~5e-7.
const GELU_C = 2 * Math.sqrt(2 / Math.PI);
const GELU_A = 0.044715;

/** σ(u) for GELU's sigmoid form. */
const geluGate = (x: tf.Tensor): tf.Tensor =>
  tf.sigmoid(
    x
      .mul(x)
      .mul(GELU_A * GELU_C)
      .add(GELU_C)
      .mul(x),
  );

/**
 * x·σ(u) with its gradient written out: d/dx x·σ(u) = s + x·s·(1 − s)·(3ca·x² + c), s = σ(u),
 * in 9 element-wise kernels where autodiff of the forward chain runs ~13 on the MLP's widest
 * tensor.
 */
const geluWritten = tf.customGrad(((x: tf.Tensor, save: tf.GradSaveFunc) => {
  const s = geluGate(x);
  save([x, s]);
  return {
    value: x.mul(s),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, ss] = saved as [tf.Tensor, tf.Tensor];
      const slope = sx
        .mul(sx)
        .mul(3 * GELU_A * GELU_C)
        .add(GELU_C);
      return dy.mul(ss.sub(ss.square()).mul(sx).mul(slope).add(ss));
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (x: tf.Tensor) => tf.Tensor;

/** GELU, tanh approximation (GPT-2); on wasm in its sigmoid form. */
export function gelu(x: tf.Tensor): tf.Tensor {
  if (tf.getBackend() === 'wasm') return geluWritten(x);
  const inner = x.add(x.pow(3).mul(0.044715)).mul(Math.sqrt(2 / Math.PI));
  return x.mul(tf.tanh(inner).add(1)).mul(0.5);
}

/**
 * GELU for inference (no gradient): on wasm, for a decoding step's few values, the sigmoid's
 * argument in one pass (wasmInference.ts StarpoGeluGate: geluGate's four ops, the same bits), then
 * tfjs's sigmoid and product as geluWritten takes them; otherwise gelu.
 */
export function geluInference(x: tf.Tensor): tf.Tensor {
  if (!onePass(x.size)) return gelu(x);
  return x.mul(tf.sigmoid(geluGateWasm(x, GELU_A * GELU_C, GELU_C)));
}
