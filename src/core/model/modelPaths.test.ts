// WASM's own model paths agree with tfjs's plain kernels on the CPU backend: the forward pass
// (GELU through sigmoid, q/k/v cut as heads in one pass, row copies for the embedding) and
// cached decoding (the multiply-and-sum attention, logits step by step); the sampler's step
// comparison picks what tf.less picks; scoreBatch's length groups give scoreSequences' and
// predictValues' numbers; planGroups keeps every row once, within the row limit, and keeps
// short rows away from long ones. The attention chooser takes the path each call needs.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { Rng } from '../rng.js';
import { buildVocabulary, Tokenizer } from '../tokenizer.js';
import { createCritic, createPolicy, disposeModel, type Model } from './params.js';
import { sampleBatch } from './sampling.js';
import { groupCost, planGroups, scoreBatch } from './scoreBatch.js';
import { predictValues, scoreSequences } from './scoring.js';
import { chooseAttention, forward, type KvCache, lmLogits } from './transformer.js';

const mc = { vocabSize: 40, dModel: 32, nLayers: 2, nHeads: 4, context: 128, mlpRatio: 4 };
let policy: Model;
let critic: Model;

beforeAll(async () => {
  await setupNodeBackend('wasm');
  policy = createPolicy(mc, new Rng(1));
  critic = createCritic(mc, new Rng(2));
});
afterAll(() => {
  disposeModel(policy);
  disposeModel(critic);
});

const maxDiff = async (a: tf.Tensor, b: tf.Tensor) => {
  const d = tf.max(tf.abs(tf.sub(a, b)));
  const v = (await d.data())[0] as number;
  tf.dispose([a, b, d]);
  return v;
};

/** Logits of a prefill of `prompt` and `steps` cached single-token steps, stacked. */
function decodeLogits(tokens: number[][], prompt: number): tf.Tensor {
  return tf.tidy(() => {
    const B = tokens.length;
    const ids = (from: number, n: number) =>
      tf.tensor2d(
        tokens.flatMap((r) => r.slice(from, from + n)),
        [B, n],
        'int32',
      );
    let out = forward(policy, {
      tokens: ids(0, prompt),
      keyBias: tf.zeros([B, 1, 1, prompt]),
      embed: 'gather',
    });
    const all: tf.Tensor[] = [lmLogits(policy, out.hidden)];
    let cache: KvCache = out.cache;
    for (let s = prompt; s < (tokens[0] as number[]).length; s++) {
      out = forward(policy, {
        tokens: ids(s, 1),
        keyBias: tf.zeros([B, 1, 1, s + 1]),
        cache,
        embed: 'gather',
      });
      cache = out.cache;
      all.push(lmLogits(policy, out.hidden));
    }
    return tf.concat(all, 1);
  });
}

describe('cheaper model paths on wasm', () => {
  const rng = new Rng(7);
  const rows = Array.from({ length: 3 }, () => Array.from({ length: 12 }, () => rng.int(1, 40)));

  it('forward and cached decoding on wasm agree with the CPU backend (1e-5)', async () => {
    const full = () =>
      tf.tidy(() =>
        lmLogits(
          policy,
          forward(policy, { tokens: tf.tensor2d(rows, [3, 12], 'int32'), embed: 'train' }).hidden,
        ),
      );
    // tfjs's plain kernels and autodiff: the model's weights move to the CPU backend and back.
    await setupNodeBackend('cpu');
    const read = async (t: tf.Tensor) => {
      const out = { values: await t.data(), shape: t.shape };
      t.dispose();
      return out;
    };
    const [cpuFull, cpuDecode] = [await read(full()), await read(decodeLogits(rows, 5))];
    await setupNodeBackend('wasm');
    expect(tf.getBackend()).toBe('wasm');
    const [oldFull, oldDecode] = [cpuFull, cpuDecode].map((c) => tf.tensor(c.values, c.shape)) as [
      tf.Tensor,
      tf.Tensor,
    ];
    const [newFull, newDecode] = [full(), decodeLogits(rows, 5)];
    // The cached steps give the full pass's logits at each position, both ways.
    const fullCopy = newFull.clone();
    expect(await maxDiff(oldFull, newFull)).toBeLessThan(1e-5);
    expect(await maxDiff(oldDecode, newDecode)).toBeLessThan(1e-5);
    const decodeAgain = decodeLogits(rows, 5);
    expect(await maxDiff(decodeAgain, fullCopy)).toBeLessThan(1e-4);
  });

  it('scoreBatch matches scoreSequences and predictValues, rows in any order', async () => {
    const mixed = [
      ...Array.from({ length: 5 }, (_, i) => Array.from({ length: 8 + i }, () => rng.int(1, 40))),
      Array.from({ length: 100 }, () => rng.int(1, 40)),
    ].reverse();
    const b = await scoreBatch(
      mixed,
      [
        { model: policy, temperature: 0.7, rows: mixed.map((_, i) => i !== 2) },
        { model: policy, temperature: 1 },
      ],
      critic,
    );
    const atT = await scoreSequences(policy, mixed, { temperature: 0.7 });
    const at1 = await scoreSequences(policy, mixed);
    const values = await predictValues(critic, mixed);
    let worst = 0;
    mixed.forEach((_, i) => {
      expect(b.logps[1]?.[i]).toHaveLength(mixed[i]!.length - 1);
      if (i === 2) expect(b.logps[0]?.[i]).toBeNull();
      else
        b.logps[0]?.[i]?.forEach((x, t) => {
          worst = Math.max(worst, Math.abs(x - atT.logps[i]![t]!));
        });
      b.logps[1]?.[i]?.forEach((x, t) => {
        worst = Math.max(worst, Math.abs(x - at1.logps[i]![t]!));
      });
      b.values?.[i]?.forEach((x, t) => {
        worst = Math.max(worst, Math.abs(x - values[i]![t]!));
      });
    });
    expect(worst).toBeLessThan(1e-5);
  });
});

describe('the sampler on wasm', () => {
  it("compares cdf < target as step(target − cdf): tf.less's bits, ties included", async () => {
    const rng = new Rng(8);
    const cdf = Array.from({ length: 64 }, () => rng.float());
    // Targets equal to a cdf entry, just below and just above one (float32 neighbours).
    const f = new Float32Array(1);
    const near = (x: number, d: number) => {
      f[0] = x;
      const bits = new Int32Array(f.buffer);
      bits[0] = (bits[0] as number) + d;
      return f[0] as number;
    };
    const targets = [
      ...cdf.slice(0, 8),
      ...cdf.slice(8, 16).map((x) => near(x, 1)),
      ...cdf.slice(16, 24).map((x) => near(x, -1)),
    ];
    const c = tf.tensor2d(cdf, [1, 64]);
    const t = tf.tensor2d(targets, [targets.length, 1]);
    const step = tf.step(tf.sub(t, c));
    const less = tf.less(c, t).cast('float32');
    expect(Array.from(await step.data())).toEqual(Array.from(await less.data()));
    tf.dispose([c, t, step, less]);
  });

  it('draws the same tokens and log-probs on wasm as on the CPU backend', async () => {
    const tok = new Tokenizer(
      buildVocabulary(['go to the green goal and pick up the yellow key then turn left']),
    );
    const model = createPolicy({ ...mc, vocabSize: tok.size }, new Rng(4));
    const prompts = [
      tok.encode('go to the green goal'),
      tok.encode('pick up the key'),
      [tok.special['<bos>']],
    ];
    const sample = () =>
      sampleBatch(model, tok, prompts, { maxNewTokens: 24, temperature: 0.9, rng: new Rng(8), stopIds: [] });
    await setupNodeBackend('cpu');
    const before = await sample();
    await setupNodeBackend('wasm');
    const after = await sample();
    expect(after.map((r) => r.ids)).toEqual(before.map((r) => r.ids));
    let worst = 0;
    after.forEach((r, i) => {
      r.logps.forEach((x, t) => {
        worst = Math.max(worst, Math.abs(x - (before[i]?.logps[t] as number)));
      });
    });
    expect(worst).toBeLessThan(1e-4);
    disposeModel(model);
  });
});

describe('the attention chooser', () => {
  it('takes the multiply-and-sum path for a wasm decode step and batched products otherwise', () => {
    const one = tf.zeros([2, 1], 'int32') as tf.Tensor2D;
    const many = tf.zeros([2, 5], 'int32') as tf.Tensor2D;
    const cache: KvCache = { keys: [tf.zeros([2, 4, 3, 8]) as tf.Tensor4D], values: [] };
    expect(chooseAttention({ tokens: one, cache, embed: 'gather' }, false, 4)).toBe('wasm-decode');
    // Training (embed 'train'), a prefill (no cache) and several new tokens take the products.
    expect(chooseAttention({ tokens: one, cache, embed: 'train' }, false, 4)).toBe('batched');
    expect(chooseAttention({ tokens: many, embed: 'gather' }, false, 4)).toBe('batched');
    expect(chooseAttention({ tokens: many, cache, embed: 'gather' }, false, 4)).toBe('batched');
    // With webgpu's fused kernels: the decode kernel needs the key bias; the causal kernel a call
    // that reads no cache.
    const keyBias = tf.zeros([2, 1, 1, 4]) as tf.Tensor4D;
    expect(chooseAttention({ tokens: one, cache, keyBias, embed: 'gather' }, true, 4)).toBe('fused-decode');
    expect(chooseAttention({ tokens: one, cache, embed: 'gather' }, true, 4)).toBe('batched');
    expect(chooseAttention({ tokens: many, embed: 'train', noCache: true }, true, 4)).toBe('fused-causal');
    expect(chooseAttention({ tokens: many, embed: 'train' }, true, 4)).toBe('batched');
    tf.dispose([one, many, keyBias, ...cache.keys]);
  });
});

describe('planGroups', () => {
  it('keeps every row once, within the row limit, short rows apart from long ones', () => {
    const lengths = [...Array(30).fill(20), 300, 310, ...Array(10).fill(40)];
    const groups = planGroups(lengths, 16, 512);
    expect(groups.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
    expect(groups.every((g) => g.length <= 16)).toBe(true);
    const long = groups.find((g) => g.includes(30));
    expect(long?.every((i) => lengths[i]! >= 300)).toBe(true);
    // One group for rows of one length that fit.
    expect(planGroups([10, 12, 9, 11], 32, 512)).toEqual([[2, 0, 3, 1]]);
    // Cutting costs a call: two rows of 33 and 64 tokens (buckets 64 and 64) stay together.
    expect(planGroups([33, 64], 32, 512)).toHaveLength(1);
    expect(groupCost(2, 64)).toBeLessThan(groupCost(1, 64) * 2);
  });
});
