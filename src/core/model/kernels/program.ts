// The small piece of tfjs-backend-webgpu's program interface our fused kernels use: a
// WebGPUProgram is a plain object — outputShape,
// variableNames (one storage binding each, named as written), workgroupSize, dispatchLayout,
// dispatch, shaderKey and getUserCode() returning `fn main(index : i32) {…}` — run by
// `backend.runWebGPUProgram(program, inputs, dtype)` inside a kernel registered for 'webgpu'.
// tfjs injects the preamble (uniforms.<name>Shape, `result`, localId, …) around the user code.
// The WebGPU package is never imported here: core type-checks without DOM/WebGPU types, and the
// backend is reached through tf.backend() at run time.
import * as tf from '@tensorflow/tfjs';

/** Threads per workgroup of every row kernel; WGSL reductions below assume exactly 64. */
export const WORKGROUP = 64;

/** Most workgroups in one dispatch dimension (WebGPU's default limit). */
export const MAX_ROWS = 65535;

/** The fields of a tfjs WebGPUProgram that our kernels set. */
export interface GpuProgram {
  variableNames: string[];
  outputShape: number[];
  shaderKey: string;
  dispatchLayout: { x: number[] };
  dispatch: [number, number, number];
  workgroupSize: [number, number, number];
  /** Extra uniforms as a WGSL struct fragment ('lr : f32, offset : i32,'), values per run. */
  uniforms?: string;
  getUserCode(): string;
}

/** Values of a program's extra uniforms, in the order its `uniforms` fragment declares them. */
export type ProgramUniforms = { type: 'float32' | 'int32'; data: number[] }[];

interface WebGpuBackendLike {
  runWebGPUProgram(
    program: GpuProgram,
    inputs: tf.TensorInfo[],
    dtype: tf.DataType,
    uniforms?: ProgramUniforms,
  ): tf.TensorInfo;
}

/**
 * A program with one 64-thread workgroup per row of the output (rows = `groups`): `main`
 * receives the flat global index, so `row = index / 64` and `tid = i32(localId.x)`.
 */
export function rowProgram(
  key: string,
  variableNames: string[],
  outputShape: number[],
  groups: number,
  body: string,
): GpuProgram {
  if (groups > MAX_ROWS) throw new Error(`${key}: ${groups} rows exceed one dispatch`);
  return {
    variableNames,
    outputShape,
    shaderKey: key,
    dispatchLayout: { x: outputShape.map((_, i) => i) },
    dispatch: [Math.max(1, groups), 1, 1],
    workgroupSize: [WORKGROUP, 1, 1],
    getUserCode: () => `${REDUCE_WGSL}\nfn main(index : i32) {\n${body}\n}`,
  };
}

/**
 * Workgroup reductions over the 64 threads. Called only from uniform control flow (never inside
 * a branch on the thread id), as WGSL requires for barriers; the result is the same in every
 * thread, and the trailing barrier lets the scratch array be reused at once.
 */
const REDUCE_WGSL = `
var<workgroup> red : array<f32, ${WORKGROUP}>;
fn reduceSum(tid : i32, v : f32) -> f32 {
  red[tid] = v;
  workgroupBarrier();
  for (var s = ${WORKGROUP / 2}; s > 0; s = s >> 1) {
    if (tid < s) { red[tid] = red[tid] + red[tid + s]; }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}
fn reduceMax(tid : i32, v : f32) -> f32 {
  red[tid] = v;
  workgroupBarrier();
  for (var s = ${WORKGROUP / 2}; s > 0; s = s >> 1) {
    if (tid < s) { red[tid] = max(red[tid], red[tid + s]); }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}`;

/** A program with one thread per output element, 64 per workgroup. */
export function flatProgram(
  key: string,
  variableNames: string[],
  outputShape: number[],
  body: string,
): GpuProgram {
  const size = outputShape.reduce((a, b) => a * b, 1);
  return {
    variableNames,
    outputShape,
    shaderKey: key,
    dispatchLayout: { x: outputShape.map((_, i) => i) },
    dispatch: [Math.ceil(size / WORKGROUP), 1, 1],
    workgroupSize: [WORKGROUP, 1, 1],
    getUserCode: () => `fn main(index : i32) {\n${body}\n}`,
  };
}

/**
 * Runs `program` on the active backend (which must be webgpu); used by the registered kernels.
 * `uniforms` carries per-run values (not part of the shader key, so one pipeline serves all).
 */
export function runProgram(
  backend: unknown,
  program: GpuProgram,
  inputs: tf.TensorInfo[],
  dtype: tf.DataType = 'float32',
  uniforms?: ProgramUniforms,
): tf.TensorInfo {
  return (backend as WebGpuBackendLike).runWebGPUProgram(program, inputs, dtype, uniforms);
}

/** Registers a webgpu kernel once (tfjs warns on a second registration). */
export function registerOnce(kernelName: string, kernelFunc: tf.KernelFunc): void {
  if (tf.getKernel(kernelName, 'webgpu')) return;
  tf.registerKernel({ kernelName, backendName: 'webgpu', kernelFunc });
}

/** Runs a registered kernel through the engine, so tidy, profile and memory see it. */
export function callKernel(
  name: string,
  inputs: tf.NamedTensorMap,
  attrs: Record<string, number> = {},
): tf.Tensor {
  return tf.engine().runKernel(name, inputs, attrs as never) as tf.Tensor;
}
