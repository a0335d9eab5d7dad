// A step larger than memory holds runs its gradient in micro-batches (update.ts): each piece's
// loss weighted by its share of what the loss averages over, so the step's loss, its metrics and
// the weights after it are those of the whole minibatch at once — for a token mean, a mean over
// rows (GRPO's seq-mean, GSPO's sequence ratio), the critic's value loss and DPO's pairs.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Adam } from '../model/adam.js';
import { createCritic, createPolicy, disposeModel, type Model, modelVariables } from '../model/params.js';
import { Rng } from '../rng.js';
import { dpoStep } from './dpoStep.js';
import { type Minibatch, microRanges, shares } from './microBatch.js';
import { packDpoBatch, pairChunks } from './optimize.js';
import { preparedSample } from './preparedSample.fixture.js';
import { criticStep, type PolicyStepSettings, policyStep, type StepResult } from './update.js';

const mc = { vocabSize: 24, dModel: 16, nLayers: 1, nHeads: 2, context: 16, mlpRatio: 2 };

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** 5 rows of 12 tokens whose loss masks hold 3, 9, 1, 6 and 0 tokens: pieces of unequal weight. */
function minibatch(): Minibatch {
  const b = 5;
  const T = 12;
  const W = T - 1;
  const rng = new Rng(11);
  const mb: Minibatch = {
    b,
    T,
    tokens: Int32Array.from({ length: b * T }, () => 1 + Math.floor(rng.float() * 20)),
    mask: new Float32Array(b * W),
    advantages: Float32Array.from({ length: b * W }, () => rng.float() * 2 - 1),
    oldLogp: Float32Array.from({ length: b * W }, () => -2.5 - rng.float()),
    refLogp: Float32Array.from({ length: b * W }, () => -2.5 - rng.float()),
    returns: Float32Array.from({ length: b * W }, () => rng.float()),
    oldValues: Float32Array.from({ length: b * W }, () => rng.float() * 0.5),
  };
  [3, 9, 1, 6, 0].forEach((n, r) => {
    for (let t = W - n; t < W; t++) mb.mask[r * W + t] = 1;
  });
  return mb;
}

const settings = (over: Partial<PolicyStepSettings> = {}): PolicyStepSettings => ({
  lr: 1e-2,
  clipLow: 0.2,
  clipHigh: 0.28,
  entropyCoef: 0.01,
  klEstimator: 'k3',
  klLossCoef: 0.05,
  gradClip: 0.5,
  temperature: 1,
  ...over,
});

async function weights(model: Model): Promise<Float32Array[]> {
  return Promise.all(modelVariables(model).map(async (v) => (await v.data()) as Float32Array));
}

/** Runs `step` on a fresh copy of a model (same seed) with a fresh Adam; returns its result and weights. */
async function stepped(
  make: () => Model,
  step: (m: Model, opt: Adam) => Promise<StepResult>,
): Promise<{ r: StepResult; w: Float32Array[] }> {
  const model = make();
  const opt = new Adam({ epsilon: 1e-8 });
  const r = await step(model, opt);
  const w = await weights(model);
  opt.dispose();
  disposeModel(model);
  return { r, w };
}

function expectSame(a: { r: StepResult; w: Float32Array[] }, b: { r: StepResult; w: Float32Array[] }): void {
  expect(b.r.ok).toBe(true);
  expect(b.r.loss).toBeCloseTo(a.r.loss, 5);
  expect(b.r.gradNorm).toBeCloseTo(a.r.gradNorm, 4);
  for (const [k, v] of Object.entries(a.r.metrics))
    expect(b.r.metrics[k as keyof StepResult['metrics']]).toBeCloseTo(v, 5);
  a.w.forEach((w, i) => {
    const other = b.w[i] as Float32Array;
    for (let j = 0; j < w.length; j++)
      expect(Math.abs((other[j] as number) - (w[j] as number))).toBeLessThan(1e-5);
  });
}

describe('micro-batches', () => {
  it('cuts rows into ranges and counts shares', () => {
    expect(microRanges(5, 2)).toEqual([
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
    expect(microRanges(5, 99)).toEqual([[0, 5]]);
    expect(shares([3, 1, 0])).toEqual([0.75, 0.25, 0]);
    expect(shares([0, 0])).toEqual([0.5, 0.5]);
  });

  it.each([
    ['token-mean', 'token'],
    ['seq-mean-token-mean', 'token'],
    ['seq-mean-token-sum', 'token'],
    ['token-mean', 'sequence'],
  ] as const)(
    'a policy step with loss %s, ratio per %s, is the whole minibatch’s in pieces of 2 rows and of 1',
    async (lossAgg, ratioLevel) => {
      const mb = minibatch();
      const make = () => createPolicy(mc, new Rng(3));
      const s = settings({ lossAgg, ratioLevel });
      const whole = await stepped(make, (m, o) => policyStep(m, o, mb, s));
      for (const rows of [2, 1]) {
        const before = tf.memory().numTensors;
        expectSame(whole, await stepped(make, (m, o) => policyStep(m, o, mb, s, rows)));
        expect(tf.memory().numTensors).toBe(before);
      }
    },
  );

  it('a critic step is the whole minibatch’s in pieces', async () => {
    const mb = minibatch();
    const make = () => createCritic(mc, new Rng(4));
    const s = { lr: 1e-2, valueClip: 0.2, gradClip: 0.5 };
    const whole = await stepped(make, (m, o) => criticStep(m, o, mb, s));
    expectSame(whole, await stepped(make, (m, o) => criticStep(m, o, mb, s, 2)));
  });

  it('a DPO step is the whole batch’s in chunks of pairs', async () => {
    const rng = new Rng(9);
    const sample = (traj: number, group: number, reward: number) => {
      const ids = Array.from({ length: 6 + traj }, () => 1 + Math.floor(rng.float() * 20));
      const ref = Float32Array.from({ length: ids.length - 1 }, () => -3 * rng.float());
      return preparedSample(traj, group, reward, ids, 2 + (traj % 3), ref);
    };
    const samples = [0, 1, 2, 3, 4, 5].map((t) => sample(t, t >> 1, t % 2));
    const pairs = [0, 1, 2].map((g) => ({ chosen: [2 * g + 1], rejected: [2 * g] }));
    expect(pairChunks(pairs, 4).map((c) => c.length)).toEqual([2, 1]);
    const make = () => createPolicy(mc, new Rng(5));
    const s = { lr: 1e-2, beta: 0.5, gradClip: 1 };
    const whole = await stepped(make, (m, o) => dpoStep(m, o, packDpoBatch(samples, pairs, 16), s));
    const pieces = pairChunks(pairs, 2).map((c) => packDpoBatch(samples, c, 16));
    expect(pieces).toHaveLength(3);
    expectSame(whole, await stepped(make, (m, o) => dpoStep(m, o, pieces, s)));
  });
});

afterAll(() => {});
