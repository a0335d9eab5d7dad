// The position-table starts of positionInit.ts: the previous-token heads' sinusoids and attention
// pattern, the plain sinusoid start's values and row scale by hand, and the table by name.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import type { ModelConfig } from './config.js';
import { createPolicy, disposeModel } from './params.js';
import { POSITION_INITS, previousTokenInit, sinusoidPositions } from './positionInit.js';

const config: ModelConfig = { vocabSize: 50, dModel: 64, nLayers: 2, nHeads: 4, context: 48, mlpRatio: 4 };

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** Layer 0 head h's attention [T, T] over `ids`, as forward computes it (pre-LayerNorm, causal). */
async function headAttention(
  policy: ReturnType<typeof createPolicy>,
  ids: number[],
  h = 0,
): Promise<number[][]> {
  const T = ids.length;
  const att = tf.tidy(() => {
    const x = tf
      .gather(policy.weights.wte as tf.Tensor2D, tf.tensor1d(ids, 'int32'))
      .add((policy.weights.wpe as tf.Tensor2D).slice([0, 0], [T, 64]));
    const mean = x.mean(1, true);
    const a = x.sub(mean).div(x.sub(mean).square().mean(1, true).add(1e-5).sqrt()); // ln1 is 1, 0 at init
    const qkv = tf.matMul(a, policy.weights['h0.attn.wqkv'] as tf.Tensor2D); // [T, 3D]
    const q = qkv.slice([0, 16 * h], [T, 16]);
    const k = qkv.slice([0, 64 + 16 * h], [T, 16]);
    const causal = tf.linalg
      .bandPart(tf.ones([T, T]), -1, 0)
      .sub(1)
      .mul(1e9);
    return tf.softmax(tf.matMul(q, k, false, true).div(4).add(causal));
  });
  const rows = (await att.array()) as number[][];
  att.dispose();
  return rows;
}

describe('previousTokenInit', () => {
  it('writes the sinusoid pairs and clears the token embeddings there', async () => {
    const policy = createPolicy(config, new Rng(1));
    await previousTokenInit(policy);
    const wpe = await policy.weights.wpe?.data();
    const wte = await policy.weights.wte?.data();
    // p = 0: cos 0 = 1, sin 0 = 0 at amplitude 0.05; p = 1, period 3: 0.05·cos(2π/3) = −0.025.
    expect(wpe?.[0]).toBeCloseTo(0.05, 6);
    expect(wpe?.[1]).toBeCloseTo(0, 6);
    expect(wpe?.[64]).toBeCloseTo(-0.025, 6);
    expect(wpe?.[65]).toBeCloseTo(0.05 * Math.sin((2 * Math.PI) / 3), 6);
    // Beyond the 16 position dims the table is zero; token rows are zero inside them.
    expect(wpe?.[16]).toBe(0);
    expect(Array.from(wte?.slice(64 * 7, 64 * 7 + 16) ?? [])).toEqual(new Array(16).fill(0));
    expect(wte?.[64 * 7 + 16]).not.toBe(0);
    disposeModel(policy);
  });

  it('makes layer 0 head 0 attend to the previous token, whatever the tokens', async () => {
    const policy = createPolicy(config, new Rng(2));
    await previousTokenInit(policy);
    const rng = new Rng(3);
    const ids = Array.from({ length: 40 }, () => rng.int(0, 50));
    const att = await headAttention(policy, ids);
    for (let p = 1; p < 40; p++) {
      const row = att[p] as number[];
      expect(row.indexOf(Math.max(...row))).toBe(p - 1);
      expect(row[p - 1]).toBeGreaterThan(0.95);
    }
    disposeModel(policy);
  });

  it('with offsets [1, 2], head 1 attends two tokens back and head 0 still one', async () => {
    const policy = createPolicy(config, new Rng(4));
    await previousTokenInit(policy, { offsets: [1, 2] });
    const rng = new Rng(5);
    const ids = Array.from({ length: 40 }, () => rng.int(0, 50));
    const [one, two] = [await headAttention(policy, ids, 0), await headAttention(policy, ids, 1)];
    for (let p = 2; p < 40; p++) {
      expect((one[p] as number[])[p - 1]).toBeGreaterThan(0.95);
      const row = two[p] as number[];
      expect(row.indexOf(Math.max(...row))).toBe(p - 2);
      expect(row[p - 2]).toBeGreaterThan(0.95);
    }
    await expect(previousTokenInit(policy, { offsets: [1, 2, 3, 4, 5] })).rejects.toThrow(
      /5 offsets > 4 heads/,
    );
    disposeModel(policy);
  });

  it('refuses heads narrower than the sinusoid pairs', async () => {
    const policy = createPolicy({ ...config, dModel: 32, nHeads: 4 }, new Rng(1));
    await expect(previousTokenInit(policy)).rejects.toThrow(/head width 8/);
    disposeModel(policy);
  });
});

describe('sinusoid start', () => {
  it('holds sin and cos of p / 10000^(2i/D) at row RMS `rms`', () => {
    const [C, D, rms] = [5, 4, 0.02];
    const t = sinusoidPositions(C, D, rms);
    const s = rms * Math.SQRT2;
    // p = 0: sin 0 = 0, cos 0 = 1 in every pair; p = 3, pair 1: angle 3 / 10000^(2/4) = 0.03.
    expect(Array.from(t.slice(0, 4))).toEqual([0, s, 0, s].map(Math.fround));
    expect(t[3 * D + 2]).toBeCloseTo(s * Math.sin(0.03), 7);
    expect(t[3 * D + 3]).toBeCloseTo(s * Math.cos(0.03), 7);
    for (let p = 0; p < C; p++) {
      const row = Array.from(t.slice(p * D, (p + 1) * D));
      expect(Math.sqrt(row.reduce((a, x) => a + x * x, 0) / D)).toBeCloseTo(rms, 7);
    }
  });

  it('is what POSITION_INITS.sinusoid writes, and random leaves the weights as created', async () => {
    const policy = createPolicy(config, new Rng(6));
    const before = await policy.weights.wpe?.data();
    await POSITION_INITS.random(policy);
    expect(await policy.weights.wpe?.data()).toEqual(before);
    await POSITION_INITS.sinusoid(policy);
    expect(await policy.weights.wpe?.data()).toEqual(sinusoidPositions(config.context, config.dModel, 0.02));
    disposeModel(policy);
  });
});
