// The base model's first turns on demand: N turns for each start seed, the same turns when asked
// again for the same iteration (a stream of their own, from the run's seed and the iteration),
// and the tensor count flat.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { createPolicy, disposeModel } from '../model/params.js';
import { Rng } from '../rng.js';
import { InProcessEnvPool } from './envPool.js';
import { SideEnv } from './sideEnv.fixture.js';
import { tinyConfig, tok } from './tinyRun.fixture.js';
import { baseFirstTurns } from './viewerSample.js';

beforeAll(async () => {
  await setupNodeBackend('wasm');
});

describe('baseFirstTurns', () => {
  it('samples N first turns per start seed, the same again for the same iteration', async () => {
    const c = tinyConfig('starpo-grpo', { groupSize: 3, temperature: 1 });
    const policy = createPolicy(
      { vocabSize: tok.size, dModel: 16, nLayers: 1, nHeads: 2, context: 128, mlpRatio: 2 },
      new Rng(5),
    );
    const pool = () => new InProcessEnvPool(() => new SideEnv());
    const before = tf.memory().numTensors;
    const a = await baseFirstTurns(policy, tok, pool(), [11, 12], c, 7);
    const b = await baseFirstTurns(policy, tok, pool(), [11, 12], c, 7);
    expect(tf.memory().numTensors).toBe(before);
    disposeModel(policy);
    expect(a.map((g) => g.length)).toEqual([3, 3]);
    expect(b).toEqual(a);
    for (const t of a.flat()) expect(typeof t.action).toBe('string');
  });
});
