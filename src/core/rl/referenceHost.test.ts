// The reference's scoring shared with a second worker (issue 40): the groups cut into two shares
// of about equal cost, the rows that travel and where their answers land, and scores that equal
// one pass's, to the bit (the worker's side stands in here as a copy in this thread).
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicy, disposeModel, type Model } from '../model/params.js';
import { shareGroups } from '../model/scoreBatch.js';
import { Rng } from '../rng.js';
import { trajectorySamples } from './batch.js';
import { InProcessEnvPool } from './envPool.js';
import { scoreSamples } from './prepare.js';
import { compactGroups, type ReferenceApart, referenceLogps } from './referenceHost.js';
import { rollout, type Trajectory } from './rollout.js';
import { SideEnv, sideEnvTokenizer, sideRolloutSettings } from './sideEnv.fixture.js';

const tok = sideEnvTokenizer();
const T = 0.7;
const mc = { vocabSize: tok.size, dModel: 16, nLayers: 1, nHeads: 2, context: 128, mlpRatio: 2 };
let policy: Model;
let reference: Model;
let trajs: Trajectory[];

beforeAll(async () => {
  await tf.setBackend('cpu');
  policy = createPolicy(mc, new Rng(3));
  reference = createPolicy(mc, new Rng(5));
  // 80 rollouts: more rows than one scoring group takes (32), so both shares have groups.
  const starts = Array.from({ length: 80 }, (_, i) => ({ group: Math.floor(i / 8), seed: i % 3 }));
  const settings = sideRolloutSettings(T);

  const pool = new InProcessEnvPool(() => new SideEnv());
  trajs = (await rollout(policy, tok, pool, starts, settings, new Rng(9))).trajectories;
});
afterAll(() => {
  for (const m of [policy, reference]) disposeModel(m);
});

describe('shareGroups', () => {
  it('gives the costliest group first to the lighter share, ties to this thread', () => {
    // Costs 128 + rows·x (x the padded length's cost): 4 rows, 2, 1, 1. The 4-row group goes
    // here, the 2-row there, the first 1-row there too (it is lighter), the last one here.
    const lengths = Array(8).fill(10);
    const groups = [[0, 1, 2, 3], [4, 5], [6], [7]];
    expect(shareGroups(groups, lengths, 128)).toEqual([
      [[0, 1, 2, 3], [7]],
      [[4, 5], [6]],
    ]);
  });

  it('puts every group in exactly one share', () => {
    const lengths = [5, 9, 30, 12, 7, 64, 3, 18];
    const groups = [[6, 0], [4, 1], [3, 7], [2], [5]];
    const [here, there] = shareGroups(groups, lengths, 128);
    expect([...here, ...there].flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(here.length).toBeGreaterThan(0);
    expect(there.length).toBeGreaterThan(0);
  });
});

describe('compactGroups', () => {
  it('sends the groups’ rows alone, renumbered, and puts the answers back in their places', () => {
    const rows = [
      [1, 2],
      [3, 4, 5],
      [6, 7],
      [8, 9, 10, 11],
    ];
    const masks = rows.map((r) => new Float32Array(r.length - 1).fill(1));
    const sent = compactGroups(rows, [[3], [1]], masks);
    expect(sent.rows).toEqual([
      [8, 9, 10, 11],
      [3, 4, 5],
    ]);
    expect(sent.groups).toEqual([[0], [1]]);
    expect(sent.masks).toEqual([masks[3], masks[1]]);
    const a = Float32Array.of(1);
    const b = Float32Array.of(2);
    expect(sent.spread([a, b])).toEqual([null, b, null, a]);
  });
});

describe('scoreSamples with the reference shared', () => {
  it('gives one pass’s log-probs, to the bit, with a share scored apart', async () => {
    const opts = { contextLength: 128, lossOnEnvTokens: false, rewardPlacement: 'last-token' as const };
    const samples = trajectorySamples(tok, trajs, opts);
    const one = await scoreSamples(samples, policy, reference, null, T, { sampled: true });
    let apartRows = 0;
    const copy: ReferenceApart = {
      async logps(rows, groups, masks, temperature) {
        apartRows += groups.flat().length;
        const sent = compactGroups(rows, groups, masks);
        return sent.spread(await referenceLogps(reference, sent.rows, sent.groups, sent.masks, temperature));
      },
      measure: () => Promise.reject(new Error('nothing is measured here')),
      rollOut: () => Promise.reject(new Error('nothing is rolled out here')),
      sample: () => Promise.reject(new Error('nothing is sampled here')),
      dispose() {},
    };
    const shared = await scoreSamples(samples, policy, reference, null, T, {
      sampled: true,
      reference: copy,
    });
    expect(apartRows).toBeGreaterThan(0);
    expect(apartRows).toBeLessThan(samples.length);
    expect(shared.refLogp).toEqual(one.refLogp);
    expect(shared.oldLogp).toEqual(one.oldLogp);
  });
});
