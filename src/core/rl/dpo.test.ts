// Online DPO over trajectories cut into history windows (issue 18): pairs are the best and
// worst trajectory of each group with all their windows, a trajectory's log-prob is the sum
// over its windows, and the step reports its own loss, margin and accuracy.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Adam } from '../model/adam.js';
import { createPolicy, disposeModel, type Model } from '../model/params.js';
import { scoreSequences } from '../model/scoring.js';
import { Rng } from '../rng.js';
import { dpoStep } from './dpoStep.js';
import { dpoPairs, packDpoBatch } from './optimize.js';
import { preparedSample } from './preparedSample.fixture.js';

const mc = { vocabSize: 20, dModel: 16, nLayers: 1, nHeads: 2, context: 32, mlpRatio: 2 };
let policy: Model;
let reference: Model;

beforeAll(async () => {
  await tf.setBackend('cpu');
  policy = createPolicy(mc, new Rng(1));
  reference = createPolicy(mc, new Rng(2));
});
afterAll(() => {
  disposeModel(policy);
  disposeModel(reference);
});

/** A window of trajectory `traj`: 6 tokens, the last three trained. */
const win = (traj: number, group: number, reward: number, ids: number[]) =>
  preparedSample(traj, group, reward, ids, 3);

describe('DPO on windows', () => {
  it('pairs the best and worst trajectory of each group with all their windows', () => {
    const s = [
      win(0, 0, 0.2, [1, 2, 3, 4, 5, 6]),
      win(0, 0, 0.2, [1, 7, 3, 4, 5, 6]),
      win(1, 0, 1, [1, 2, 8, 4, 5, 6]),
      win(1, 0, 1, [1, 2, 3, 9, 5, 6]),
      win(2, 0, -0.1, [1, 2, 3, 4, 10, 6]),
      win(3, 1, 0.5, [1, 2, 3, 4, 5, 11]),
      win(4, 1, 0.5, [1, 2, 3, 4, 5, 12]), // tie: no pair for group 1
    ];
    expect(dpoPairs(s)).toEqual([{ chosen: [2, 3], rejected: [4] }]);
  });

  it('sums a trajectory’s windows: margin and loss match the scored windows by hand', async () => {
    const ids = [
      [1, 2, 3, 4, 5, 6],
      [1, 7, 3, 4, 5, 6],
      [1, 2, 8, 4, 9, 6],
    ];
    const samples = [win(0, 0, 1, ids[0]!), win(0, 0, 1, ids[1]!), win(1, 0, 0, ids[2]!)];
    const ref = await scoreSequences(reference, ids);
    samples.forEach((s, i) => {
      s.refLogp = ref.logps[i]!;
    });
    const pol = await scoreSequences(policy, ids);
    const masked = (xs: Float32Array) => xs.slice(-3).reduce((a, b) => a + b, 0);
    const seq = (i: number) => masked(pol.logps[i]!);
    const refSeq = (i: number) => masked(ref.logps[i]!);
    const beta = 0.5;
    const z = beta * (seq(0) + seq(1) - refSeq(0) - refSeq(1) - (seq(2) - refSeq(2)));
    const batch = packDpoBatch(samples, dpoPairs(samples), 32);
    expect([batch.pairs, batch.rows]).toEqual([1, 3]);
    expect(Array.from(batch.owner)).toEqual([1, 1, 0, 0, 0, 1]);
    expect(batch.refChosen[0]).toBeCloseTo(refSeq(0) + refSeq(1), 5);
    const opt = new Adam({ epsilon: 1e-8 });
    const r = await dpoStep(policy, opt, batch, { lr: 0, beta, gradClip: 1 });
    opt.dispose();
    expect(r.ok).toBe(true);
    expect(r.metrics['actor/dpoMargin']).toBeCloseTo(z, 4);
    expect(r.metrics['actor/dpoLoss']).toBeCloseTo(Math.log(1 + Math.exp(-z)), 4);
    expect(r.metrics['actor/dpoAccuracy']).toBe(z > 0 ? 1 : 0);
    // DPO's loss is its own metric, never charted as a clipped surrogate.
    expect(r.metrics['actor/pgLoss']).toBeUndefined();
    expect(r.metrics['actor/gradNorm']).toBe(r.gradNorm);
  });
});
