// Kernels this project registers on tfjs-wasm for inference (decoding, scoring): each does in
// one pass over a decoding step's few values what tfjs's ops do in several kernels, with every
// operation rounded to float32 in the order the ops take, so the numbers are the ops' to the bit
// (wasmKernels.test.ts, and the rollout golden, bench/rolloutGolden.test.ts). A decoding step is
// bound by its number of small kernels, not by its arithmetic: ~190 a step before this work. No
// gradients: training keeps the ops. The callers use them only up to ONE_PASS_MAX_VALUES values,
// where one JS pass is faster than the ops' SIMD kernels.
// - StarpoLayerNorm: mean as a sum divided by D, variance as the mean of squared deviations,
//   1/√(σ² + ε), then (x − μ)·r·γ + β (elementwise.ts's ops: ~10 kernels a call).
// - StarpoGeluGate: GELU's sigmoid argument ((x·x)·ca + c)·x (elementwise.ts geluGate's four
//   element-wise ops); the sigmoid and the product stay tfjs's.
// - StarpoScaleBias: decoding attention's scores scaled by 1/√K and given their key bias,
//   [B, H, 1, S]·s + [B, 1, 1, S] (transformer.ts decodeAttention's two ops).
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { at, floats } from './wasmKernels.js';

const LAYER_NORM = 'StarpoLayerNorm';
const GELU_GATE = 'StarpoGeluGate';
const SCALE_BIAS = 'StarpoScaleBias';

/**
 * Above this many values the ops' SIMD kernels beat one JS pass (measured on 64 wide rows:
 * 64 rows 0.04 ms against 0.12, 256 rows 0.14 against 0.20, 1,024 rows 0.55 against 0.43).
 */
export const ONE_PASS_MAX_VALUES = 32_768;

/** Whether a tensor of `size` values takes the one-pass kernels here (wasm, small). */
export const onePass = (size: number): boolean => tf.getBackend() === 'wasm' && size <= ONE_PASS_MAX_VALUES;

const layerNormKernel: tf.KernelConfig = {
  kernelName: LAYER_NORM,
  backendName: 'wasm',
  kernelFunc: ({ inputs, backend, attrs }) => {
    const w = backend as unknown as BackendWasm;
    const { x, g, b } = inputs as Record<'x' | 'g' | 'b', tf.TensorInfo>;
    const D = g.shape[0] as number;
    const N = x.shape.reduce((p, q) => p * q, 1) / D;
    const out = w.makeOutput(x.shape, 'float32');
    const heap = floats(w);
    const [xo, go, bo, oo] = [at(w, x), at(w, g), at(w, b), at(w, out)];
    const f = Math.fround;
    const eps = f((attrs as { epsilon: number }).epsilon);
    for (let r = 0; r < N; r++) {
      const row = xo + r * D;
      let sum = 0;
      for (let j = 0; j < D; j++) sum = f(sum + (heap[row + j] as number));
      const mean = f(sum / D);
      let sq = 0;
      for (let j = 0; j < D; j++) {
        const d = f((heap[row + j] as number) - mean);
        sq = f(sq + f(d * d));
      }
      const inv = f(1 / f(Math.sqrt(f(f(sq / D) + eps))));
      const dst = oo + r * D;
      for (let j = 0; j < D; j++) {
        const xhat = f(f((heap[row + j] as number) - mean) * inv);
        heap[dst + j] = f(xhat * (heap[go + j] as number)) + (heap[bo + j] as number);
      }
    }
    return out;
  },
};

/** LayerNorm of x [..., D] with γ, β [D] (ε as elementwise.ts's), inference only, on wasm. */
export function layerNormWasm(x: tf.Tensor, g: tf.Tensor, b: tf.Tensor, epsilon: number): tf.Tensor {
  installInferenceKernels();
  const attrs = { epsilon } as unknown as tf.NamedAttrMap;
  return tf.engine().runKernel(LAYER_NORM, { x, g, b }, attrs) as tf.Tensor;
}

const geluGateKernel: tf.KernelConfig = {
  kernelName: GELU_GATE,
  backendName: 'wasm',
  kernelFunc: ({ inputs, backend, attrs }) => {
    const w = backend as unknown as BackendWasm;
    const { x } = inputs as { x: tf.TensorInfo };
    const out = w.makeOutput(x.shape, 'float32');
    const heap = floats(w);
    const f = Math.fround;
    const { ca, c } = attrs as { ca: number; c: number };
    const [a32, c32] = [f(ca), f(c)]; // the ops' scalars are float32 tensors
    const [xo, oo] = [at(w, x), at(w, out)];
    const n = x.shape.reduce((p, q) => p * q, 1);
    for (let i = 0; i < n; i++) {
      const v = heap[xo + i] as number;
      heap[oo + i] = f(f(f(v * v) * a32) + c32) * v;
    }
    return out;
  },
};

const scaleBiasKernel: tf.KernelConfig = {
  kernelName: SCALE_BIAS,
  backendName: 'wasm',
  kernelFunc: ({ inputs, backend, attrs }) => {
    const w = backend as unknown as BackendWasm;
    const { x, bias } = inputs as { x: tf.TensorInfo; bias: tf.TensorInfo };
    const [B, H, , S] = x.shape as [number, number, number, number];
    const out = w.makeOutput(x.shape, 'float32');
    const heap = floats(w);
    const f = Math.fround;
    const scale = f((attrs as { scale: number }).scale);
    const [xo, bo, oo] = [at(w, x), at(w, bias), at(w, out)];
    for (let b = 0; b < B; b++)
      for (let h = 0; h < H; h++) {
        const row = (b * H + h) * S;
        for (let s = 0; s < S; s++)
          heap[oo + row + s] = f((heap[xo + row + s] as number) * scale) + (heap[bo + b * S + s] as number);
      }
    return out;
  },
};

let installed = false;

/** Registers the kernels above on the wasm backend (once; a no-op when it is not registered). */
function installInferenceKernels(): void {
  if (installed || !tf.getKernel('Identity', 'wasm')) return;
  installed = true;
  tf.registerKernel(layerNormKernel);
  tf.registerKernel(geluGateKernel);
  tf.registerKernel(scaleBiasKernel);
}

/** ((x·x)·ca + c)·x, on wasm, inference only (elementwise.ts geluGate's argument of the sigmoid). */
export function geluGateWasm(x: tf.Tensor, ca: number, c: number): tf.Tensor {
  installInferenceKernels();
  return tf.engine().runKernel(GELU_GATE, { x }, { ca, c } as unknown as tf.NamedAttrMap) as tf.Tensor;
}

/** scores [B, H, 1, S]·scale + bias [B, 1, 1, S], on wasm, inference only. */
export function scaleBiasWasm(x: tf.Tensor, bias: tf.Tensor, scale: number): tf.Tensor {
  installInferenceKernels();
  return tf.engine().runKernel(SCALE_BIAS, { x, bias }, { scale } as unknown as tf.NamedAttrMap) as tf.Tensor;
}
