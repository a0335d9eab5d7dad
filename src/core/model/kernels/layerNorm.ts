// Fused LayerNorm for the webgpu backend: one dispatch forward instead of tf.moments + five
// elementwise ops (~11 dispatches), and four backward instead of ~25. Same math as the unfused
// transformer.ts layerNorm (biased variance, eps 1e-5 inside the rsqrt); the gradient is the
// standard one, dx = rstd·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂)) with dx̂ = dy·g, written with
// tf.customGrad. N = rows, D = width.
import * as tf from '@tensorflow/tfjs';
import { callKernel, flatProgram, registerOnce, rowProgram, runProgram, WORKGROUP } from './program.js';

const FORWARD = 'StarpoLayerNorm';
const STATS = 'StarpoLayerNormStats';
const GRAD_X = 'StarpoLayerNormGradX';
const GRAD_GAIN = 'StarpoLayerNormGradGain';
const GRAD_BIAS = 'StarpoLayerNormGradBias';

/** Per-row mean and rstd (WGSL lines shared by the forward and the statistics kernel). */
const ROW_STATS = `
  let row = index / ${WORKGROUP};
  let tid = i32(localId.x);
  let D = uniforms.xShape[1];
  let base = row * D;
  var s = 0.0;
  for (var j = tid; j < D; j = j + ${WORKGROUP}) { s = s + x[base + j]; }
  let mean = reduceSum(tid, s) / f32(D);
  var q = 0.0;
  for (var j = tid; j < D; j = j + ${WORKGROUP}) { let d = x[base + j] - mean; q = q + d * d; }
  let rstd = inverseSqrt(reduceSum(tid, q) / f32(D) + 1e-5);`;

/** The FORWARD kernel (registered by registerLayerNormKernels). */
const layerNormForward: tf.KernelFunc = ({ inputs, backend }) => {
  const x = inputs.x as tf.TensorInfo;
  const [N] = x.shape as [number, number];
  const body = `${ROW_STATS}
for (var j = tid; j < D; j = j + ${WORKGROUP}) {
  result[base + j] = (x[base + j] - mean) * rstd * gain[j] + bias[j];
}`;
  const program = rowProgram('starpoLayerNorm', ['x', 'gain', 'bias'], x.shape, N, body);
  return runProgram(backend, program, [x, inputs.gain as tf.TensorInfo, inputs.bias as tf.TensorInfo]);
};

/** The STATS kernel (registered by registerLayerNormKernels). */
const layerNormStats: tf.KernelFunc = ({ inputs, backend }) => {
  const x = inputs.x as tf.TensorInfo;
  const [N] = x.shape as [number, number];
  const body = `${ROW_STATS}
if (tid == 0) { result[row * 2] = mean; result[row * 2 + 1] = rstd; }`;
  return runProgram(backend, rowProgram('starpoLayerNormStats', ['x'], [N, 2], N, body), [x]);
};

/** The GRAD_X kernel (registered by registerLayerNormKernels). */
const layerNormGradX: tf.KernelFunc = ({ inputs, backend }) => {
  const x = inputs.x as tf.TensorInfo;
  const [N] = x.shape as [number, number];
  const body = `
let row = index / ${WORKGROUP};
let tid = i32(localId.x);
let D = uniforms.xShape[1];
let base = row * D;
let mean = stats[row * 2];
let rstd = stats[row * 2 + 1];
var a = 0.0;
var c = 0.0;
for (var j = tid; j < D; j = j + ${WORKGROUP}) {
  let xh = (x[base + j] - mean) * rstd;
  let dxh = dy[base + j] * gain[j];
  a = a + dxh;
  c = c + dxh * xh;
}
let ma = reduceSum(tid, a) / f32(D);
let mc = reduceSum(tid, c) / f32(D);
for (var j = tid; j < D; j = j + ${WORKGROUP}) {
  let xh = (x[base + j] - mean) * rstd;
  result[base + j] = rstd * (dy[base + j] * gain[j] - ma - xh * mc);
}`;
  const program = rowProgram('starpoLayerNormGradX', ['x', 'gain', 'dy', 'stats'], x.shape, N, body);
  const { gain, dy, stats } = inputs as Record<string, tf.TensorInfo>;
  return runProgram(backend, program, [
    x,
    gain as tf.TensorInfo,
    dy as tf.TensorInfo,
    stats as tf.TensorInfo,
  ]);
};

/** The GRAD_GAIN kernel (registered by registerLayerNormKernels). */
const layerNormGradGain: tf.KernelFunc = ({ inputs, backend }) => {
  const x = inputs.x as tf.TensorInfo;
  const [, D] = x.shape as [number, number];
  // One thread per column: dg[j] = Σ_n dy[n, j]·x̂[n, j].
  const body = `
let j = index;
let N = uniforms.xShape[0];
let D = uniforms.xShape[1];
if (j < D) {
  var acc = 0.0;
  for (var n = 0; n < N; n = n + 1) {
    acc = acc + dy[n * D + j] * (x[n * D + j] - stats[n * 2]) * stats[n * 2 + 1];
  }
  result[j] = acc;
}`;
  const program = flatProgram('starpoLayerNormGradGain', ['x', 'dy', 'stats'], [D], body);
  return runProgram(backend, program, [x, inputs.dy as tf.TensorInfo, inputs.stats as tf.TensorInfo]);
};

/** The GRAD_BIAS kernel (registered by registerLayerNormKernels). */
const layerNormGradBias: tf.KernelFunc = ({ inputs, backend }) => {
  const dy = inputs.dy as tf.TensorInfo;
  const [, D] = dy.shape as [number, number];
  const body = `
let j = index;
let N = uniforms.dyShape[0];
let D = uniforms.dyShape[1];
if (j < D) {
  var acc = 0.0;
  for (var n = 0; n < N; n = n + 1) { acc = acc + dy[n * D + j]; }
  result[j] = acc;
}`;
  return runProgram(backend, flatProgram('starpoLayerNormGradBias', ['dy'], [D], body), [dy]);
};

/** Registers the LayerNorm kernels for the webgpu backend (idempotent). */
export function registerLayerNormKernels(): void {
  registerOnce(FORWARD, layerNormForward);
  registerOnce(STATS, layerNormStats);
  registerOnce(GRAD_X, layerNormGradX);
  registerOnce(GRAD_GAIN, layerNormGradGain);
  registerOnce(GRAD_BIAS, layerNormGradBias);
}

const layerNorm2d = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, gain, bias, save] = args as [tf.Tensor, tf.Tensor, tf.Tensor, tf.GradSaveFunc];
  save([x, gain]);
  return {
    value: callKernel(FORWARD, { x, gain, bias }),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, gs] = saved as [tf.Tensor, tf.Tensor];
      const stats = callKernel(STATS, { x: xs });
      return [
        callKernel(GRAD_X, { x: xs, gain: gs, dy, stats }),
        callKernel(GRAD_GAIN, { x: xs, dy, stats }),
        callKernel(GRAD_BIAS, { dy }),
      ];
    },
  };
});

/**
 * LayerNorm over the last axis of `x` (any rank) with gain and bias [D], differentiable in all
 * three. webgpu backend only (callers check `fusedKernelsActive()`). Returns a new tensor.
 */
export function fusedLayerNorm(x: tf.Tensor, gain: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  registerLayerNormKernels();
  const D = x.shape[x.shape.length - 1] as number;
  return layerNorm2d(x.reshape([-1, D]), gain, bias).reshape(x.shape);
}
