// The fused optimizer step's kernels for the webgpu backend: the gradients as one flat vector,
// their global L2 norm in one dispatch, and Adam in 1 + (one per weight) dispatches — where
// tf.train.adam spends ~14 elementwise dispatches per weight and the unfused norm and clipping 4
// more (bench/results.json `dispatch`). The moments are one flat buffer [m | v] of 2N floats,
// owned by the optimizer (model/adam.ts); the clipping scale is a uniform of the moments kernel.
// Same math and operation order as tfjs's AdamOptimizer (bias correction from f32 powers of β,
// explicit ε):
//   m' = β1·m + (1−β1)·g,  v' = β2·v + (1−β2)·g²,  p' = (m'/(1−β1^t)) / (√(v'/(1−β2^t)) + ε)·(−lr) + p
// N = parameters in all weights together.
import * as tf from '@tensorflow/tfjs';
import { callKernel, flatProgram, registerOnce, rowProgram, runProgram, WORKGROUP } from './program.js';

const NORM = 'StarpoGlobalNorm';
const MOMENTS = 'StarpoAdamMoments';
const PARAM = 'StarpoAdamParam';

/** Registers the three kernels for the webgpu backend (idempotent). */
export function registerAdamKernels(): void {
  registerOnce(NORM, ({ inputs, backend }) => {
    const g = inputs.g as tf.TensorInfo;
    // One workgroup walks the whole vector: a single dispatch, whose result is read back anyway.
    const body = `
  let tid = i32(localId.x);
  let N = uniforms.gShape;
  var s = 0.0;
  for (var j = tid; j < N; j = j + ${WORKGROUP}) { let x = g[j]; s = s + x * x; }
  let total = reduceSum(tid, s);
  if (tid == 0) { result[0] = sqrt(total); }`;
    return runProgram(backend, rowProgram('starpoGlobalNorm', ['g'], [1], 1, body), [g]);
  });
  registerOnce(MOMENTS, ({ inputs, backend, attrs }) => {
    const g = inputs.g as tf.TensorInfo;
    const mv = inputs.mv as tf.TensorInfo;
    const a = attrs as unknown as Record<string, number>;
    const body = `
  let N = uniforms.gShape;
  if (index < N) {
    let gs = g[index] * uniforms.scale;
    result[index] = mv[index] * uniforms.beta1 + gs * uniforms.oneMinusBeta1;
  } else if (index < 2 * N) {
    let gs = g[index - N] * uniforms.scale;
    result[index] = mv[index] * uniforms.beta2 + gs * gs * uniforms.oneMinusBeta2;
  }`;
    const program = flatProgram('starpoAdamMoments', ['g', 'mv'], mv.shape, body);
    program.uniforms = 'scale : f32, beta1 : f32, oneMinusBeta1 : f32, beta2 : f32, oneMinusBeta2 : f32,';
    const f = (x: number | undefined) => ({ type: 'float32' as const, data: [x ?? 0] });
    return runProgram(backend, program, [g, mv], 'float32', [
      f(a.scale),
      f(a.beta1),
      f(1 - (a.beta1 ?? 0)),
      f(a.beta2),
      f(1 - (a.beta2 ?? 0)),
    ]);
  });
  registerOnce(PARAM, ({ inputs, backend, attrs }) => {
    const p = inputs.p as tf.TensorInfo;
    const a = attrs as unknown as Record<string, number>;
    const body = `
  if (index < uniforms.pShape) {
    let m = mv[uniforms.offset + index] / uniforms.bc1;
    let v = mv[uniforms.total + uniforms.offset + index] / uniforms.bc2;
    result[index] = (m / (sqrt(v) + uniforms.eps)) * uniforms.negLr + p[index];
  }`;
    const program = flatProgram('starpoAdamParam', ['p', 'mv'], p.shape, body);
    program.uniforms = 'offset : i32, total : i32, bc1 : f32, bc2 : f32, eps : f32, negLr : f32,';
    const f = (x: number | undefined) => ({ type: 'float32' as const, data: [x ?? 0] });
    return runProgram(backend, program, [p, inputs.mv as tf.TensorInfo], 'float32', [
      { type: 'int32', data: [a.offset ?? 0] },
      { type: 'int32', data: [a.total ?? 0] },
      f(a.bc1),
      f(a.bc2),
      f(a.eps),
      f(-(a.lr ?? 0)),
    ]);
  });
}

/** The gradients as one flat vector [N] in the map's key order (a few concat dispatches). */
export function flattenGradients(grads: tf.NamedTensorMap): tf.Tensor1D {
  return tf.tidy(() => tf.concat(Object.values(grads).map((g) => g.reshape([-1]))) as tf.Tensor1D);
}

/** √Σ x² of a flat vector, one dispatch: the global gradient norm before clipping. */
export function fusedGlobalNorm(flat: tf.Tensor1D): tf.Scalar {
  registerAdamKernels();
  return tf.tidy(() => callKernel(NORM, { g: flat }).reshape([]) as tf.Scalar);
}

/** The moments after one step: [2N] from the flat gradient `flat` [N] times `scale` and the moments `mv` [2N]; the caller disposes. */
export function adamMoments(
  flat: tf.Tensor1D,
  mv: tf.Tensor1D,
  scale: number,
  beta1: number,
  beta2: number,
): tf.Tensor1D {
  registerAdamKernels();
  return callKernel(MOMENTS, { g: flat, mv }, { scale, beta1, beta2 }) as tf.Tensor1D;
}

/** Where one weight's values sit in the flat moments, and the step's constants. */
export interface AdamParamAttrs {
  /** Offset of the weight in the first half of `mv`, and N. */
  offset: number;
  total: number;
  /** 1 − β1^t and 1 − β2^t (float32), ε and the step size. */
  bc1: number;
  bc2: number;
  eps: number;
  lr: number;
}

/** One weight's new values [size] from its flat values `p` and the stepped moments `mv`; the caller disposes. */
export function adamParam(p: tf.Tensor1D, mv: tf.Tensor1D, attrs: AdamParamAttrs): tf.Tensor1D {
  registerAdamKernels();
  return callKernel(PARAM, { p, mv }, { ...attrs }) as tf.Tensor1D;
}
