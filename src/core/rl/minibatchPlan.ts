// An iteration's minibatches: which samples each optimizer step takes (epochs × shuffled
// minibatches, or a fixed number of steps an iteration, planned over trajectories so a
// trajectory's windows stay together), and a minibatch packed into padded arrays.
import type { Config } from '../config.js';
import { bucketLength } from '../model/scoring.js';
import type { Rng } from '../rng.js';
import { indicesBy } from '../variants/estimators/math.js';
import type { Minibatch } from './microBatch.js';
import type { PreparedSample } from './samples.js';

/**
 * Lists the minibatches of this iteration as lists of unit indices in [0, n): epochs × shuffled
 * minibatches of `minibatch` units, or `stepsPerIteration` steps of ⌈n / steps⌉ units each
 * (reshuffled when a pass runs out).
 */
export function planMinibatches(
  n: number,
  config: Pick<Config, 'epochs' | 'minibatch' | 'stepsPerIteration'>,
  rng: Rng,
): number[][] {
  if (n === 0) return [];
  const order = () => rng.shuffle([...Array(n).keys()]);
  if (config.stepsPerIteration > 0) {
    const steps = config.stepsPerIteration;
    const size = Math.ceil(n / steps);
    let pool = order();
    const out: number[][] = [];
    let k = 0;
    for (let s = 0; s < steps; s++) {
      const mb: number[] = [];
      for (let j = 0; j < size; j++) {
        if (k === n) {
          pool = order();
          k = 0;
        }
        mb.push(pool[k++] as number);
      }
      out.push(mb);
    }
    return out;
  }
  const out: number[][] = [];
  for (let e = 0; e < config.epochs; e++) {
    const idx = order();
    for (let s = 0; s < n; s += config.minibatch) out.push(idx.slice(s, s + config.minibatch));
  }
  return out;
}

/**
 * The minibatches of this iteration as sample indices, planned over trajectories: `minibatch`
 * counts trajectories (as its help text says) and a trajectory's samples (its history windows,
 * or its turns) stay together in one minibatch, so step counts do not depend on episode length.
 */
export function planTrajectoryMinibatches(
  samples: readonly Pick<PreparedSample, 'traj'>[],
  config: Pick<Config, 'epochs' | 'minibatch' | 'stepsPerIteration'>,
  rng: Rng,
): number[][] {
  const byTraj = [...indicesBy(samples.map((s) => s.traj)).values()];
  return planMinibatches(byTraj.length, config, rng).map((units) =>
    units.flatMap((u) => byTraj[u] as number[]),
  );
}

/** Packs samples into one padded minibatch. */
export function packMinibatch(samples: readonly PreparedSample[], context: number, padId = 0): Minibatch {
  const b = samples.length;
  const T = bucketLength(Math.max(...samples.map((s) => s.ids.length)), context);
  const W = T - 1;
  const mb: Minibatch = {
    b,
    T,
    tokens: new Int32Array(b * T).fill(padId),
    mask: new Float32Array(b * W),
    advantages: new Float32Array(b * W),
    oldLogp: new Float32Array(b * W),
    refLogp: new Float32Array(b * W),
    returns: new Float32Array(b * W),
    oldValues: new Float32Array(b * W),
  };
  samples.forEach((s, r) => {
    mb.tokens.set(s.ids, r * T);
    mb.mask.set(s.lossMask, r * W);
    mb.advantages.set(s.advantages, r * W);
    mb.oldLogp.set(s.oldLogp, r * W);
    mb.refLogp.set(s.refLogp, r * W);
    mb.returns.set(s.returns, r * W);
    mb.oldValues.set(s.oldValues, r * W);
  });
  return mb;
}
