// Adam, ours: the step size is an argument of each step, and the moments live here and only here.
// Same math and operation order as tfjs 4.22's AdamOptimizer, so a run gives the same bits it gave
// on tf.train.adam (adam.test.ts steps both on the same gradients and compares every weight):
//   m' = β1·m + (1−β1)·g,  v' = β2·v + (1−β2)·g²,
//   p' = (m'/(1−β1^t)) / (√(v'/(1−β2^t)) + ε)·(−lr) + p,
// with β^t accumulated as tfjs does (a float32 product, multiplied by β once a step), and a
// clipping scale applied to the gradients first (g·scale, one multiply). ε is always explicit
// (tfjs-webgpu's default differs from the other backends').
//
// Two layouts of the same moments: one [m, v] pair per weight (the tf ops path: cpu, wasm, and
// webgpu with the fused kernels off), or one flat [m | v] buffer of 2N floats for the fused WebGPU
// kernels (kernels/adam.ts: 1 + one-per-weight dispatches a step). A step takes whichever path is
// active and moves the moments to its layout first, so a run can cross between them. N = values
// in all stepped weights together.
import * as tf from '@tensorflow/tfjs';
import { adamMoments, adamParam, flattenGradients } from './kernels/adam.js';
import { fusedKernelsActive } from './kernels/switch.js';
import { type Model, modelVariables } from './params.js';

/** β1, β2 (defaults 0.9, 0.999, as everywhere in this project) and the explicit ε. */
export interface AdamSettings {
  epsilon: number;
  beta1?: number;
  beta2?: number;
}

/** Adam's state as plain numbers and float arrays: what a checkpoint carries. */
export interface AdamState {
  /** Steps applied so far. */
  steps: number;
  /** β1^(steps+1) and β2^(steps+1) as the optimizer accumulated them (float32 products). */
  accBeta1: number;
  accBeta2: number;
  /** First and second moments, one per weight in the model's `names` order; empty before the first step. */
  first: Float32Array[];
  second: Float32Array[];
}

/** One weight's moments on the tf ops path. */
interface WeightMoments {
  name: string;
  m: tf.Variable;
  v: tf.Variable;
}

/** The fused path's moments: [2N], first moments then second, in `names` order. */
interface FlatMoments {
  names: string[];
  shapes: number[][];
  offsets: number[];
  total: number;
  mv: tf.Tensor1D;
}

const f32 = Math.fround;
const sizeOf = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

export class Adam {
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
  private steps = 0;
  /** β^(steps+1), float32, as tfjs keeps it (starts at β). */
  private accBeta1: number;
  private accBeta2: number;
  /** The moments, in one of the two layouts (or none before the first step). */
  private perWeight: WeightMoments[] = [];
  private flat: FlatMoments | null = null;

  constructor(s: AdamSettings) {
    this.beta1 = s.beta1 ?? 0.9;
    this.beta2 = s.beta2 ?? 0.999;
    this.epsilon = s.epsilon;
    this.accBeta1 = f32(this.beta1);
    this.accBeta2 = f32(this.beta2);
  }

  /** Whether the next step takes the fused WebGPU kernels. */
  get fused(): boolean {
    return fusedKernelsActive();
  }

  /**
   * One step of the weights named in `grads` (registered variables, always the same names in the
   * same order) at step size `lr`, the gradients times `scale` (the clipping factor, 1 for none).
   * On the fused path `flat` may be the gradients already flattened (flattenGradients of the same
   * map), else they are flattened here. The caller keeps and disposes `grads` and `flat`.
   */
  step(grads: tf.NamedTensorMap, lr: number, scale = 1, flat?: tf.Tensor1D): void {
    if (this.fused) this.fusedStep(grads, lr, scale, flat);
    else this.opsStep(grads, lr, scale);
    this.steps++;
    this.accBeta1 = f32(this.accBeta1 * f32(this.beta1));
    this.accBeta2 = f32(this.accBeta2 * f32(this.beta2));
  }

  /** The loss of `f` and one step of `vars` on its gradient (no clipping); the caller disposes the loss. */
  minimize(f: () => tf.Scalar, vars: tf.Variable[], lr: number): tf.Scalar {
    const { value, grads } = tf.variableGrads(f, vars);
    const ordered = Object.fromEntries(vars.map((v) => [v.name, grads[v.name] as tf.Tensor]));
    this.step(ordered, lr);
    tf.dispose(Object.values(grads));
    return value;
  }

  /** tfjs's applyGradients, op for op, with the moments kept per weight here. */
  private opsStep(grads: tf.NamedTensorMap, lr: number, scale: number): void {
    const names = Object.keys(grads);
    const moments = this.perWeightFor(names);
    const vars = tf.engine().registeredVariables;
    const { beta1, beta2, epsilon } = this;
    tf.tidy(() => {
      const oneMinusAccBeta1 = tf.sub(1, tf.scalar(this.accBeta1));
      const oneMinusAccBeta2 = tf.sub(1, tf.scalar(this.accBeta2));
      names.forEach((name, i) => {
        const value = vars[name] as tf.Variable;
        const { m, v } = moments[i] as WeightMoments;
        const raw = grads[name] as tf.Tensor;
        const g = scale === 1 ? raw : tf.mul(raw, scale);
        const newM = tf.add(tf.mul(m, beta1), tf.mul(g, 1 - beta1));
        const newV = tf.add(tf.mul(v, beta2), tf.mul(tf.square(g), 1 - beta2));
        const mHat = tf.div(newM, oneMinusAccBeta1);
        const vHat = tf.div(newV, oneMinusAccBeta2);
        m.assign(newM);
        v.assign(newV);
        value.assign(tf.add(tf.mul(tf.div(mHat, tf.add(tf.sqrt(vHat), epsilon)), -lr), value));
      });
    });
  }

  /** The same step through the fused kernels: the moments in one dispatch, each weight in one. */
  private fusedStep(grads: tf.NamedTensorMap, lr: number, scale: number, given?: tf.Tensor1D): void {
    const state = this.flatFor(grads);
    const flat = given ?? flattenGradients(grads);
    const mv = adamMoments(flat, state.mv, scale, this.beta1, this.beta2);
    if (!given) flat.dispose();
    const bc1 = f32(1 - this.accBeta1);
    const bc2 = f32(1 - this.accBeta2);
    const vars = tf.engine().registeredVariables;
    tf.tidy(() => {
      state.names.forEach((name, i) => {
        const variable = vars[name] as tf.Variable;
        const at = { offset: state.offsets[i] as number, total: state.total };
        const next = adamParam(variable.reshape([-1]), mv, { ...at, bc1, bc2, eps: this.epsilon, lr });
        variable.assign(next.reshape(variable.shape));
      });
    });
    state.mv.dispose();
    state.mv = mv;
  }

  /** The per-weight moments for `names` (zeros for a first step), taken over from the flat layout if it holds them. */
  private perWeightFor(names: readonly string[]): WeightMoments[] {
    if (this.flat) this.flatToPerWeight();
    if (this.perWeight.length === 0) {
      const vars = tf.engine().registeredVariables;
      const zeros = (name: string) => tf.tidy(() => tf.zerosLike(vars[name] as tf.Variable).variable(false));
      this.perWeight = names.map((name) => ({ name, m: zeros(name), v: zeros(name) }));
    }
    sameNames(
      this.perWeight.map((w) => w.name),
      names,
    );
    return this.perWeight;
  }

  /** The flat moments for the weights of `grads`, taken over from the per-weight layout if it holds them. */
  private flatFor(grads: tf.NamedTensorMap): FlatMoments {
    const names = Object.keys(grads);
    if (this.flat) {
      sameNames(this.flat.names, names);
      return this.flat;
    }
    const shapes = names.map((n) => (grads[n] as tf.Tensor).shape);
    const sizes = shapes.map(sizeOf);
    const offsets = sizes.map((_, i) => sizes.slice(0, i).reduce((a, b) => a + b, 0));
    const total = sizes.reduce((a, b) => a + b, 0);
    if (this.perWeight.length > 0)
      sameNames(
        this.perWeight.map((w) => w.name),
        names,
      );
    const held = this.perWeight;
    const mv = tf.tidy(() =>
      held.length === 0
        ? tf.zeros([2 * total])
        : tf.concat([...held.map((w) => w.m.reshape([-1])), ...held.map((w) => w.v.reshape([-1]))]),
    ) as tf.Tensor1D;
    this.disposePerWeight();
    this.flat = { names, shapes, offsets, total, mv };
    return this.flat;
  }

  /** Moves the flat moments into one variable pair per weight. */
  private flatToPerWeight(): void {
    const state = this.flat;
    if (!state) return;
    const part = (i: number, second: boolean) =>
      tf.tidy(() => {
        const start = (second ? state.total : 0) + (state.offsets[i] as number);
        const shape = state.shapes[i] as number[];
        return tf.variable(state.mv.slice([start], [sizeOf(shape)]).reshape(shape), false);
      });
    this.perWeight = state.names.map((name, i) => ({ name, m: part(i, false), v: part(i, true) }));
    state.mv.dispose();
    this.flat = null;
  }

  private disposePerWeight(): void {
    tf.dispose(this.perWeight.flatMap((w) => [w.m, w.v]));
    this.perWeight = [];
  }

  /** The state for the weights of `model` (the ones this optimizer steps). Reads with `await data()`. */
  async state(model: Model): Promise<AdamState> {
    this.flatToPerWeight();
    const vars = modelVariables(model);
    if (this.perWeight.length > 0) {
      if (this.perWeight.length !== vars.length)
        throw new Error(`Adam state: ${this.perWeight.length} moments for ${vars.length} weights`);
      sameNames(
        this.perWeight.map((w) => w.name),
        vars.map((v) => v.name),
      );
    }
    const read = (which: 'm' | 'v') =>
      Promise.all(this.perWeight.map(async (w) => (await w[which].data()) as Float32Array));
    const { steps, accBeta1, accBeta2 } = this;
    return { steps, accBeta1, accBeta2, first: await read('m'), second: await read('v') };
  }

  /** Puts `state` (from `state()` on a model of the same shape) in place of what this optimizer held. */
  restore(model: Model, state: AdamState): void {
    const vars = modelVariables(model);
    if (state.first.length !== state.second.length)
      throw new Error('Adam state: first and second moments differ in count');
    for (const [which, list] of [
      ['first', state.first],
      ['second', state.second],
    ] as const) {
      if (list.length !== 0 && list.length !== vars.length)
        throw new Error(`Adam state: ${list.length} ${which} moments for ${vars.length} weights`);
      list.forEach((values, i) => {
        const size = (vars[i] as tf.Variable).size;
        if (values.length !== size)
          throw new Error(`Adam state: ${which} moment ${i} has ${values.length} values, its weight ${size}`);
      });
    }
    this.dispose();
    const moment = (values: Float32Array, v: tf.Variable) =>
      tf.tidy(() => tf.variable(tf.tensor(values, v.shape), false));
    this.perWeight = state.first.map((first, i) => {
      const v = vars[i] as tf.Variable;
      return { name: v.name, m: moment(first, v), v: moment(state.second[i] as Float32Array, v) };
    });
    this.steps = state.steps;
    this.accBeta1 = state.accBeta1;
    this.accBeta2 = state.accBeta2;
  }

  /** Frees the moments (the optimizer can step again afterwards, from zeros). */
  dispose(): void {
    this.disposePerWeight();
    this.flat?.mv.dispose();
    this.flat = null;
  }
}

function sameNames(held: readonly string[], given: readonly string[]): void {
  if (held.length !== given.length || held.some((n, i) => n !== given[i]))
    throw new Error(
      `Adam: stepped weights ${given.length} (${given[0]}…) differ from the ${held.length} it holds moments for`,
    );
}
