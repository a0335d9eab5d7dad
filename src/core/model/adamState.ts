// An Adam optimizer's state read out as plain numbers and float arrays and written back, so a
// checkpoint carries it and a run resumed from the checkpoint takes exactly the steps the
// uninterrupted run would have taken. The accumulated β powers are kept as the optimizer holds
// them (float32 products), not recomputed: tfjs's own setWeights recomputes them with pow(), which
// can differ in the last bit.
import * as tf from '@tensorflow/tfjs';
import { type AdamInternals, releaseFusedAdam } from './kernels/adam.js';
import { type Model, modelVariables } from './params.js';

export interface AdamState {
  /** Steps applied so far. */
  steps: number;
  /** β1^(steps+1) and β2^(steps+1) as the optimizer accumulated them. */
  accBeta1: number;
  accBeta2: number;
  /** First and second moments, one per weight in the model's `names` order; empty before the first step. */
  first: Float32Array[];
  second: Float32Array[];
}

function internals(optimizer: tf.Optimizer): AdamInternals {
  if (!(optimizer instanceof tf.AdamOptimizer)) throw new Error('Adam state: the optimizer is not Adam');
  return optimizer as unknown as AdamInternals;
}

/** The optimizer's state for the weights of `model` (the ones it steps). Reads with `await data()`. */
export async function readAdamState(optimizer: tf.Optimizer, model: Model): Promise<AdamState> {
  const adam = internals(optimizer);
  releaseFusedAdam(optimizer); // the moments back in the optimizer's own lists, by weight
  const vars = modelVariables(model);
  const read = async (list: AdamInternals['accumulatedFirstMoment'], suffix: string) => {
    if (list.length === 0) return [];
    if (list.length !== vars.length)
      throw new Error(`Adam state: ${list.length} moments for ${vars.length} weights`);
    return Promise.all(
      vars.map(async (v, i) => {
        const m = list[i];
        if (m?.originalName !== `${v.name}/${suffix}`)
          throw new Error(`Adam state: moment ${i} is ${m?.originalName}, expected ${v.name}/${suffix}`);
        return (await m.variable.data()) as Float32Array;
      }),
    );
  };
  return {
    steps: adam.iterations_ ?? 0,
    accBeta1: ((await adam.accBeta1.data()) as Float32Array)[0] as number,
    accBeta2: ((await adam.accBeta2.data()) as Float32Array)[0] as number,
    first: await read(adam.accumulatedFirstMoment, 'm'),
    second: await read(adam.accumulatedSecondMoment, 'v'),
  };
}

/**
 * Puts `state` (from `readAdamState` on a model of the same shape) into `optimizer` for the
 * weights of `model`, replacing whatever it held.
 */
export function writeAdamState(optimizer: tf.Optimizer, model: Model, state: AdamState): void {
  const adam = internals(optimizer);
  const vars = modelVariables(model);
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
  if (state.first.length !== state.second.length)
    throw new Error('Adam state: first and second moments differ in count');
  releaseFusedAdam(optimizer);
  tf.dispose([...adam.accumulatedFirstMoment, ...adam.accumulatedSecondMoment].map((m) => m.variable));
  const moments = (list: Float32Array[], suffix: string) =>
    list.map((values, i) => {
      const v = vars[i] as tf.Variable;
      return {
        originalName: `${v.name}/${suffix}`,
        variable: tf.tidy(() => tf.variable(tf.tensor(values, v.shape), false)),
      };
    });
  adam.accumulatedFirstMoment = moments(state.first, 'm');
  adam.accumulatedSecondMoment = moments(state.second, 'v');
  adam.iterations_ = state.steps;
  tf.tidy(() => {
    adam.accBeta1.assign(tf.scalar(state.accBeta1));
    adam.accBeta2.assign(tf.scalar(state.accBeta2));
  });
}
