// Our Adam against tfjs's own, on the same gradients: every weight and moment to the bit, with
// the step size changing from step to step (as the trainer's warm-up changes it) and a clipping
// scale on one step; its state read out and put back continues to the same bits; a step size of 0
// moves nothing; the tensor count stays flat; a step of other weights is refused by name.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import { Adam } from './adam.js';
import type { Model } from './params.js';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SHAPES = [[3, 5], [5], [2, 3, 2]];
/** Per step: the step size and the clipping scale (1 = none). */
const STEPS: [number, number][] = [
  [1e-3, 1],
  [2e-3, 0.37],
  [6e-4, 1],
  [6e-4, 1],
  [5e-2, 1],
];
let serial = 0;

function values(rng: Rng, shape: number[], std: number): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return tf.tensor(
    Float32Array.from({ length: n }, () => rng.normal(0, std)),
    shape,
  );
}

/** A model-shaped holder of fresh variables (names unique to this call) starting at `init`. */
function weights(init: readonly tf.Tensor[]): Model {
  serial++;
  const names = init.map((_, i) => `adamTest${serial}_${i}`);
  const vars = init.map((t, i) => tf.variable(t.clone(), true, names[i]));
  return { names, weights: Object.fromEntries(names.map((n, i) => [n, vars[i]])) } as unknown as Model;
}

const varsOf = (m: Model) => m.names.map((n) => m.weights[n] as tf.Variable);
const named = (m: Model, g: readonly tf.Tensor[]): tf.NamedTensorMap =>
  Object.fromEntries(m.names.map((n, i) => [n, g[i] as tf.Tensor]));
const read = (vs: readonly tf.Tensor[]) => Promise.all(vs.map(async (v) => Array.from(await v.data())));

/** tfjs's Adam taking the same steps: its step size set on the optimizer, clipping as a multiply first. */
function tfSteps(m: Model, grads: readonly tf.Tensor[][], from = 0, to = STEPS.length): tf.Optimizer {
  const opt: tf.Optimizer = tf.train.adam(STEPS[0]?.[0] ?? 0, 0.9, 0.999, 1e-8);
  for (let s = from; s < to; s++) {
    const [lr, scale] = STEPS[s] as [number, number];
    (opt as unknown as { learningRate: number }).learningRate = lr;
    const scaled = tf.tidy(() =>
      named(
        m,
        (grads[s] as tf.Tensor[]).map((g) => (scale === 1 ? g : tf.mul(g, scale))),
      ),
    );
    opt.applyGradients(scaled);
    if (scale !== 1) tf.dispose(Object.values(scaled));
  }
  return opt;
}

function ourSteps(opt: Adam, m: Model, grads: readonly tf.Tensor[][], from = 0, to = STEPS.length): void {
  for (let s = from; s < to; s++) {
    const [lr, scale] = STEPS[s] as [number, number];
    opt.step(named(m, grads[s] as tf.Tensor[]), lr, scale);
  }
}

describe('Adam', () => {
  const rng = new Rng(21);
  const init = SHAPES.map((s) => values(rng, s, 0.5));
  const grads = STEPS.map(() => SHAPES.map((s) => values(rng, s, 1)));

  it('takes the steps tf.train.adam takes, to the bit, with the step size given each step', async () => {
    const theirs = weights(init);
    const ours = weights(init);
    const ref = tfSteps(theirs, grads);
    const opt = new Adam({ epsilon: 1e-8 });
    ourSteps(opt, ours, grads);
    expect(await read(varsOf(ours))).toEqual(await read(varsOf(theirs)));
    // The weights moved, so the agreement says something.
    expect(await read(varsOf(ours))).not.toEqual(await read(init));
    // The moments too: tfjs's own, by weight, against ours read out.
    const internals = ref as unknown as { accumulatedFirstMoment: { variable: tf.Variable }[] };
    const state = await opt.state(ours);
    expect(state.steps).toBe(STEPS.length);
    expect(state.first.map((a) => Array.from(a))).toEqual(
      await read(internals.accumulatedFirstMoment.map((m) => m.variable)),
    );
    ref.dispose();
    opt.dispose();
    tf.dispose([...varsOf(theirs), ...varsOf(ours)]);
  });

  it('continues to the same bits from its state put into a new optimizer, and keeps the tensor count flat', async () => {
    const whole = weights(init);
    const straight = new Adam({ epsilon: 1e-8 });
    ourSteps(straight, whole, grads);

    const cut = weights(init);
    const first = new Adam({ epsilon: 1e-8 });
    ourSteps(first, cut, grads, 0, 2);
    const state = await first.state(cut);
    first.dispose();
    const second = new Adam({ epsilon: 1e-8 });
    second.restore(cut, state);
    ourSteps(second, cut, grads, 2, 3);
    const before = tf.memory().numTensors;
    ourSteps(second, cut, grads, 3);
    expect(tf.memory().numTensors).toBe(before);
    expect(await read(varsOf(cut))).toEqual(await read(varsOf(whole)));
    straight.dispose();
    second.dispose();
    tf.dispose([...varsOf(whole), ...varsOf(cut)]);
  });

  it('moves nothing at step size 0, and refuses a step of weights it holds no moments for', async () => {
    const m = weights(init);
    const opt = new Adam({ epsilon: 1e-8 });
    for (const g of grads) opt.step(named(m, g), 0);
    expect(await read(varsOf(m))).toEqual(await read(init));
    const other = weights(init);
    expect(() => opt.step(named(other, grads[0] as tf.Tensor[]), 1e-3)).toThrow(/differ from the 3 it holds/);
    opt.dispose();
    tf.dispose([...varsOf(m), ...varsOf(other)]);
  });
});
