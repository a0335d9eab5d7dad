import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import { Adam } from './adam.js';
import { MODEL_PRESETS, type ModelConfig, modelConfig } from './config.js';
import {
  cloneModel,
  copyWeights,
  createCritic,
  createPolicy,
  disposeModel,
  modelVariables,
  parameterCount,
} from './params.js';
import { criticValues, policyLogProbs } from './scoring.js';

const config: ModelConfig = { vocabSize: 20, dModel: 16, nLayers: 2, nHeads: 2, context: 16, mlpRatio: 4 };
// Two fixed sequences with a loss mask on their second half.
const seqs = [
  [1, 5, 6, 7, 8, 9, 10, 11, 12, 2],
  [1, 13, 14, 15, 16, 17, 18, 19, 4, 2],
];
const mask = [0, 0, 0, 0, 1, 1, 1, 1, 1]; // over targets t = 1..9

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('policy and critic weights', () => {
  it('are fixed by the seed and differ across seeds', async () => {
    const a = createPolicy(config, new Rng(1));
    const b = createPolicy(config, new Rng(1));
    const c = createPolicy(config, new Rng(2));
    const wa = await a.weights['h1.mlp.wfc']?.data();
    expect(Array.from(wa ?? [])).toEqual(Array.from((await b.weights['h1.mlp.wfc']?.data()) ?? []));
    expect(Array.from(wa ?? [])).not.toEqual(Array.from((await c.weights['h1.mlp.wfc']?.data()) ?? []));
    expect(Array.from((await a.weights['h0.ln1.g']?.data()) ?? [])).toEqual(new Array(16).fill(1));
    for (const m of [a, b, c]) disposeModel(m);
  });

  it('have the preset sizes', () => {
    const nano = modelConfig('nano', 500);
    expect(nano).toMatchObject({ ...MODEL_PRESETS.nano, vocabSize: 500, context: 512 });
    const p = createPolicy({ ...nano, context: 256 }, new Rng(0));
    // wte + wpe + per layer (2 LN + qkv + out + mlp) + final LN
    const D = 64;
    const perLayer = 4 * D + (D * 3 * D + 3 * D) + (D * D + D) + (D * 4 * D + 4 * D) + (4 * D * D + D);
    expect(parameterCount(p)).toBe(500 * D + 256 * D + 2 * perLayer + 2 * D);
    disposeModel(p);
    expect(() => modelConfig('nano', 0)).toThrow(/vocabSize/);
    expect(() => createPolicy({ ...config, nHeads: 3 }, new Rng(0))).toThrow(/divisible/);
  });
});

describe('training', () => {
  it('lowers the masked loss of a few fixed sequences with Adam (gradients reach every weight)', async () => {
    const policy = createPolicy(config, new Rng(3));
    const reference = cloneModel(policy);
    const optimizer = new Adam({ epsilon: 1e-8 });
    const tokens = tf.tensor2d(seqs, [2, 10], 'int32');
    const m = tf.tensor2d([mask, mask], [2, 9]);
    const loss = () =>
      tf.tidy(() => {
        const { logp } = policyLogProbs(policy, tokens);
        return logp.mul(m).sum().div(m.sum()).neg() as tf.Scalar;
      });
    const first = (await loss().data())[0] as number;
    const { grads } = tf.variableGrads(loss, modelVariables(policy));
    for (const name of policy.names) {
      const g = grads[(policy.weights[name] as tf.Variable).name] as tf.Tensor;
      expect((await g.abs().sum().data())[0], name).toBeGreaterThan(0);
    }
    tf.dispose(grads);
    const step = () => optimizer.minimize(loss, modelVariables(policy), 1e-2).dispose();
    step(); // creates Adam's moments
    const before = tf.memory().numTensors;
    for (let i = 1; i < 30; i++) step();
    expect(tf.memory().numTensors).toBe(before);
    const last = (await loss().data())[0] as number;
    expect(last).toBeLessThan(first * 0.3);
    // The frozen reference did not move, and copyWeights resets the policy to it.
    const refLoss = tf.tidy(() => policyLogProbs(reference, tokens).logp.mul(m).sum().div(m.sum()).neg());
    expect((await refLoss.data())[0]).toBeCloseTo(first, 5);
    copyWeights(policy, reference);
    expect((await loss().data())[0]).toBeCloseTo(first, 5);
    tf.dispose([tokens, m, refLoss]);
    optimizer.dispose();
    disposeModel(policy);
    disposeModel(reference);
  });

  it('fits critic values to fixed returns', async () => {
    const critic = createCritic(config, new Rng(4));
    const optimizer = new Adam({ epsilon: 1e-8 });
    const tokens = tf.tensor2d(seqs, [2, 10], 'int32');
    const targets = tf.tensor2d([new Array(10).fill(1), new Array(10).fill(-0.5)], [2, 10]);
    // Position 0 is <bos> in both rows, so only later positions can tell the rows apart.
    const loss = () =>
      tf.tidy(
        () => criticValues(critic, tokens).sub(targets).slice([0, 1], [2, 9]).square().mean() as tf.Scalar,
      );
    const first = (await loss().data())[0] as number;
    for (let step = 0; step < 30; step++) optimizer.minimize(loss, modelVariables(critic), 1e-2).dispose();
    expect((await loss().data())[0]).toBeLessThan(first * 0.1);
    tf.dispose([tokens, targets]);
    optimizer.dispose();
    disposeModel(critic);
  });
});
