// Fused optimizer step for the webgpu backend: the gradients as one flat vector, their global
// L2 norm in one dispatch, and Adam in 1 + (one per weight) dispatches — where tf.train.adam
// spends ~14 elementwise dispatches per weight and the unfused norm and clipping 4 more
// (bench/results.json `dispatch`). The first and second moments of every weight live in one
// flat buffer [m | v] of 2N floats owned by this module (a new tensor each step, the old one
// disposed); the clipping scale is a uniform of the moments kernel. Same math and operation
// order as tfjs's AdamOptimizer (bias correction from f32 powers of β, explicit ε):
//   m' = β1·m + (1−β1)·g,  v' = β2·v + (1−β2)·g²,  p' = (m'/(1−β1^t)) / (√(v'/(1−β2^t)) + ε)·(−lr) + p
// The state moves to and from the tf optimizer's own moments when a step takes the other path.
// N = parameters in all weights together.
import * as tf from '@tensorflow/tfjs';
import { callKernel, flatProgram, registerOnce, rowProgram, runProgram, WORKGROUP } from './program.js';
import { fusedKernelsActive } from './switch.js';

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

/** The fields of tfjs's AdamOptimizer this module reads and hands state to (internal in 4.22). */
export interface AdamInternals {
  learningRate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
  iterations_: number;
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
  accumulatedFirstMoment: { originalName: string; variable: tf.Variable }[];
  accumulatedSecondMoment: { originalName: string; variable: tf.Variable }[];
  dispose(): void;
}

interface FusedState {
  names: string[];
  shapes: number[][];
  offsets: number[];
  total: number;
  /** [2N]: first moments, then second moments, in `names` order. */
  mv: tf.Tensor1D;
}

const states = new WeakMap<tf.Optimizer, FusedState>();
/** Optimizers whose dispose() also frees their fused state. */
const hooked = new WeakSet<tf.Optimizer>();

/** Whether `optimizer`'s next step takes the fused path: fused kernels active and it is Adam. */
export function fusedAdamActive(optimizer: tf.Optimizer): boolean {
  return fusedKernelsActive() && optimizer instanceof tf.AdamOptimizer;
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

/** β^(k+1) as tfjs accumulates it: a float32 scalar multiplied by β once per applied step. */
function accumulatedBeta(beta: number, steps: number): number {
  const b = Math.fround(beta);
  let acc = b;
  for (let i = 0; i < steps; i++) acc = Math.fround(acc * b);
  return acc;
}

/** Our flat state, made on first use: taken over from the tf optimizer's moments, or zeros. */
function stateFor(adam: AdamInternals, optimizer: tf.Optimizer, grads: tf.NamedTensorMap): FusedState {
  const names = Object.keys(grads);
  const existing = states.get(optimizer);
  if (existing) {
    if (existing.names.join('\n') !== names.join('\n'))
      throw new Error('fused Adam: the weights differ from the ones this optimizer stepped before');
    return existing;
  }
  const shapes = names.map((n) => (grads[n] as tf.Tensor).shape);
  const sizes = shapes.map((s) => s.reduce((a, b) => a * b, 1));
  const offsets = sizes.map((_, i) => sizes.slice(0, i).reduce((a, b) => a + b, 0));
  const total = sizes.reduce((a, b) => a + b, 0);
  const moment = (list: AdamInternals['accumulatedFirstMoment'], name: string, i: number) =>
    list.find((m) => m.originalName === name)?.variable.reshape([-1]) ?? tf.zeros([sizes[i] as number]);
  const fresh = adam.accumulatedFirstMoment.length === 0 && adam.accumulatedSecondMoment.length === 0;
  const mv = tf.tidy(() =>
    fresh
      ? tf.zeros([2 * total])
      : tf.concat([
          ...names.map((n, i) => moment(adam.accumulatedFirstMoment, `${n}/m`, i)),
          ...names.map((n, i) => moment(adam.accumulatedSecondMoment, `${n}/v`, i)),
        ]),
  ) as tf.Tensor1D;
  // The moments now live here only; the tf optimizer gets them back if a step goes unfused.
  tf.dispose([...adam.accumulatedFirstMoment, ...adam.accumulatedSecondMoment].map((m) => m.variable));
  adam.accumulatedFirstMoment = [];
  adam.accumulatedSecondMoment = [];
  const state: FusedState = { names, shapes, offsets, total, mv: tf.keep(mv) };
  if (!hooked.has(optimizer)) {
    hooked.add(optimizer);
    const dispose = adam.dispose.bind(adam);
    adam.dispose = () => {
      states.get(optimizer)?.mv.dispose();
      states.delete(optimizer);
      dispose();
    };
  }
  states.set(optimizer, state);
  return state;
}

/**
 * One Adam step of the weights named in `grads` from their flat gradient `flat` (made by
 * flattenGradients from the same map) times `scale` (the clipping factor, 1 for none). Replaces
 * each weight's value (the old one is disposed by assign) and the moments. webgpu only.
 */
export function fusedAdamApply(
  optimizer: tf.Optimizer,
  grads: tf.NamedTensorMap,
  flat: tf.Tensor1D,
  scale = 1,
): void {
  if (!(optimizer instanceof tf.AdamOptimizer)) throw new Error('fusedAdamApply: not an Adam optimizer');
  registerAdamKernels();
  const adam = optimizer as unknown as AdamInternals;
  const state = stateFor(adam, optimizer, grads);
  const steps = adam.iterations_ ?? 0;
  const bc1 = Math.fround(1 - accumulatedBeta(adam.beta1, steps));
  const bc2 = Math.fround(1 - accumulatedBeta(adam.beta2, steps));
  const mv = callKernel(MOMENTS, { g: flat, mv: state.mv }, { scale, beta1: adam.beta1, beta2: adam.beta2 });
  const vars = tf.engine().registeredVariables;
  tf.tidy(() => {
    state.names.forEach((name, i) => {
      const variable = vars[name] as tf.Variable;
      const next = callKernel(
        PARAM,
        { p: variable.reshape([-1]), mv },
        {
          offset: state.offsets[i] as number,
          total: state.total,
          bc1,
          bc2,
          eps: adam.epsilon,
          lr: adam.learningRate,
        },
      );
      variable.assign(next.reshape(variable.shape));
    });
  });
  state.mv.dispose();
  state.mv = tf.keep(mv) as tf.Tensor1D;
  // Keep the tf optimizer's counters in step, so a later unfused step continues from here.
  adam.iterations_ = steps + 1;
  tf.tidy(() => {
    adam.accBeta1.assign(tf.scalar(accumulatedBeta(adam.beta1, steps + 1)));
    adam.accBeta2.assign(tf.scalar(accumulatedBeta(adam.beta2, steps + 1)));
  });
}

/**
 * Hands the fused moments back to the tf optimizer (its own per-weight moment variables), so an
 * unfused step continues the same run. No-op when this optimizer has no fused state.
 */
export function releaseFusedAdam(optimizer: tf.Optimizer): void {
  const state = states.get(optimizer);
  if (!state) return;
  const adam = optimizer as unknown as AdamInternals;
  const part = (i: number, second: boolean) =>
    tf.tidy(() => {
      const size = state.shapes[i]?.reduce((a, b) => a * b, 1) ?? 0;
      const start = (second ? state.total : 0) + (state.offsets[i] as number);
      return tf.variable(state.mv.slice([start], [size]).reshape(state.shapes[i] as number[]), false);
    });
  adam.accumulatedFirstMoment = state.names.map((n, i) => ({
    originalName: `${n}/m`,
    variable: part(i, false),
  }));
  adam.accumulatedSecondMoment = state.names.map((n, i) => ({
    originalName: `${n}/v`,
    variable: part(i, true),
  }));
  state.mv.dispose();
  states.delete(optimizer);
}

/**
 * optimizer.minimize(f, true, vars) through the fused step (no clipping): returns the loss
 * (the caller disposes it). webgpu only.
 */
export function fusedMinimize(optimizer: tf.Optimizer, f: () => tf.Scalar, vars: tf.Variable[]): tf.Scalar {
  const { value, grads } = tf.variableGrads(f, vars);
  const flat = flattenGradients(grads);
  fusedAdamApply(optimizer, grads, flat, 1);
  tf.dispose([flat, ...Object.values(grads)]);
  return value;
}
