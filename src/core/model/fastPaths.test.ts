// Issue 22's cheaper model paths agree with the old ones on WASM: the forward pass with GELU
// through sigmoid, cached decoding with the multiply-and-sum attention (logits step by step),
// and scoreBatch's length groups against scoreSequences / predictValues; planGroups keeps every
// row once, within the row limit, and keeps short rows away from long ones.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { Rng } from '../rng.js';
import { buildVocabulary, Tokenizer } from '../tokenizer.js';
import { setFastPaths } from './fastPaths.js';
import { createCritic, createPolicy, disposeModel, type Model } from './params.js';
import { sampleBatch } from './sampling.js';
import { groupCost, planGroups, scoreBatch } from './scoreBatch.js';
import { predictValues, scoreSequences } from './scoring.js';
import { forward, type KvCache, lmLogits } from './transformer.js';

const mc = { vocabSize: 40, dModel: 32, nLayers: 2, nHeads: 4, context: 128, mlpRatio: 4 };
let policy: Model;
let critic: Model;

beforeAll(async () => {
  await setupNodeBackend('wasm');
  policy = createPolicy(mc, new Rng(1));
  critic = createCritic(mc, new Rng(2));
});
afterAll(() => {
  setFastPaths(true);
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

  it('forward with GELU through sigmoid and cached decoding agree with the old paths (1e-5)', async () => {
    const full = () =>
      tf.tidy(() =>
        lmLogits(
          policy,
          forward(policy, { tokens: tf.tensor2d(rows, [3, 12], 'int32'), embed: 'train' }).hidden,
        ),
      );
    setFastPaths(false);
    const [oldFull, oldDecode] = [full(), decodeLogits(rows, 5)];
    setFastPaths(true);
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
  it('draws the same tokens and log-probs with the step comparison as with tf.less', async () => {
    const tok = new Tokenizer(
      buildVocabulary(['go to the green goal and pick up the yellow key then turn left']),
    );
    const model = createPolicy({ ...mc, vocabSize: tok.size }, new Rng(4));
    const prompts = [
      tok.encode('go to the green goal'),
      tok.encode('pick up the key'),
      [tok.special['<bos>']],
    ];
    const sample = (on: boolean) => {
      setFastPaths({ pickStep: on });
      return sampleBatch(model, tok, prompts, {
        maxNewTokens: 24,
        temperature: 0.9,
        rng: new Rng(8),
        stopIds: [],
      });
    };
    const [before, after] = [await sample(false), await sample(true)];
    expect(after.map((r) => r.ids)).toEqual(before.map((r) => r.ids));
    expect(after.map((r) => Array.from(r.logps))).toEqual(before.map((r) => Array.from(r.logps)));
    disposeModel(model);
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
