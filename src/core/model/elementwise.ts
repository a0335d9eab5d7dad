// LayerNorm and GELU as tfjs ops, for every backend but fused WebGPU (kernels/ has those):
// nanoGPT's LayerNorm (ε = 1e-5) and GPT-2's tanh GELU. On wasm the GELU goes through sigmoid
// (tfjs-wasm's Tanh is a scalar loop), and both carry their gradients written out, each behind
// its fastPaths switch (fastPaths.ts) with tfjs's autodiff of the same forward ops as the
// "before". Every function returns new tensors; callers run them inside tf.tidy or a gradient.
import * as tf from '@tensorflow/tfjs';
import { fastPaths } from './fastPaths.js';

/** LayerNorm as tfjs ops, differentiated by tfjs's autodiff (the reference for the others). */
export function layerNormAutodiff(x: tf.Tensor, g: tf.Tensor, b: tf.Tensor): tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  return x
    .sub(mean)
    .mul(tf.rsqrt(variance.add(1e-5)))
    .mul(g)
    .add(b);
}

/**
 * LayerNorm with its gradient written out: the same forward ops, and a backward of ~11 kernels
 * where tfjs's autodiff of the ops above runs ~35 (each broadcast op adds a reduction):
 * x̂ = (x − μ)·r, r = 1/√(σ² + ε); dx = r·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂)), dx̂ = dy·g;
 * dg = Σ dy·x̂ and db = Σ dy over every axis but the last.
 */
const layerNormWritten = tf.customGrad(((x: tf.Tensor, g: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  const { mean, variance } = tf.moments(x, -1, true);
  const r = tf.rsqrt(variance.add(1e-5));
  const xhat = x.sub(mean).mul(r);
  save([xhat, r, g]);
  return {
    value: xhat.mul(g).add(b),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sr, sg] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
      const lead = Array.from({ length: dy.rank - 1 }, (_, i) => i);
      const dxhat = dy.mul(sg);
      const dx = dxhat
        .sub(dxhat.mean(-1, true))
        .sub(sx.mul(dxhat.mul(sx).mean(-1, true)))
        .mul(sr);
      return [dx, dy.mul(sx).sum(lead), dy.sum(lead)];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (
  x: tf.Tensor,
  g: tf.Tensor,
  b: tf.Tensor,
) => tf.Tensor;

export function layerNorm(x: tf.Tensor, g: tf.Tensor, b: tf.Tensor): tf.Tensor {
  return fastPaths().layerNormGrad ? layerNormWritten(x, g, b) : layerNormAutodiff(x, g, b);
}

// 0.5·x·(1 + tanh z) = x·σ(u), z = √(2/π)·(x + 0.044715·x³), u = 2z = (c·a·x² + c)·x with
// c = 2√(2/π), a = 0.044715: tfjs-wasm's Tanh is a scalar loop ~25× slower than its Sigmoid
// (fastPaths.ts).
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

function geluSigmoid(x: tf.Tensor): tf.Tensor {
  return x.mul(geluGate(x));
}

/**
 * geluSigmoid with its gradient written out: d/dx x·σ(u) = s + x·s·(1 − s)·(3ca·x² + c), s = σ(u),
 * in 9 element-wise kernels where autodiff of the forward chain runs ~13 on the MLP's widest
 * tensor (fastPaths.ts geluGrad). The same forward ops.
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

/** GELU, tanh approximation (GPT-2). */
export function gelu(x: tf.Tensor): tf.Tensor {
  const wasm = tf.getBackend() === 'wasm';
  if (wasm && fastPaths().geluSigmoid) return fastPaths().geluGrad ? geluWritten(x) : geluSigmoid(x);
  // tfjs-wasm's Pow is slow (~60 ms a step on nano); elsewhere one pow is one dispatch fewer.
  const cube = wasm ? x.mul(x).mul(x) : x.pow(3);
  const inner = x.add(cube.mul(0.044715)).mul(Math.sqrt(2 / Math.PI));
  return x.mul(tf.tanh(inner).add(1)).mul(0.5);
}
