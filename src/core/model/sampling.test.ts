import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import { buildVocabulary, Tokenizer } from '../tokenizer.js';
import type { ModelConfig } from './config.js';
import { createCritic, createPolicy, disposeModel, type Model } from './params.js';
import { sampleBatch } from './sampling.js';
import { predictValues, scoreSequences } from './scoring.js';
import { forward, lmLogits } from './transformer.js';

const tok = new Tokenizer(
  buildVocabulary([
    'You see a yellow key 1 step right and 5 steps forward',
    'get to the green goal square turn left go forward',
    'search[red shampoo] click[b0001] [SEP] price lower than 50.00 dollars',
  ]),
);
const config: ModelConfig = {
  vocabSize: tok.size,
  dModel: 32,
  nLayers: 2,
  nHeads: 4,
  context: 96,
  mlpRatio: 4,
};
const prompts = [
  tok.encode('get to the green goal square'),
  tok.encode('You see a yellow key 1 step right and 5 steps forward <think>'),
  tok.encode('search[red shampoo]'),
  [tok.special['<bos>']],
];
// Several common tokens stop a row, so rows of a random model end at different lengths.
const stopIds = ['</answer>', 'a', 'the', 'see', '5'].map((t) => tok.idOf(t) as number);
let policy: Model;

/** Element-wise equality within 1e-4. */
function expectClose(a: ArrayLike<number>, b: ArrayLike<number>): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs((a[i] as number) - (b[i] as number))).toBeLessThan(1e-4);
}

let critic: Model;

beforeAll(async () => {
  await tf.setBackend('cpu');
  policy = createPolicy(config, new Rng(7));
  critic = createCritic(config, new Rng(8));
});
afterAll(() => {
  disposeModel(policy);
  disposeModel(critic);
});

describe('sampleBatch', () => {
  it('gives the same tokens and log-probs with the KV cache as by recomputing', async () => {
    for (const temperature of [1, 0.7, 0]) {
      const opts = { maxNewTokens: 12, temperature, stopIds };
      const cached = await sampleBatch(policy, tok, prompts, { ...opts, rng: new Rng(3) });
      const full = await sampleBatch(policy, tok, prompts, { ...opts, rng: new Rng(3), useCache: false });
      if (temperature === 1) {
        expect(new Set(cached.map((r) => r.ids.length)).size).toBeGreaterThan(1);
        expect(cached.some((r) => r.stopped) && cached.some((r) => !r.stopped)).toBe(true);
      }
      cached.forEach((row, b) => {
        const ref = full[b];
        expect(row.ids).toEqual(ref?.ids);
        expect(row.stopped).toBe(ref?.stopped);
        expectClose(row.logps, ref?.logps ?? []);
        expectClose(row.sampleLogps, ref?.sampleLogps ?? []);
        expect(row.text).toBe(tok.decode(row.ids));
      });
    }
  });

  it('gives repeated prompts the rows of a prefill of each, and rows that stopped leave the batch', async () => {
    // Each prompt three times, interleaved: the distinct ones are prefilled once and copied.
    const repeated = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3].map((i) => prompts[i] as number[]);
    const opts = { maxNewTokens: 12, temperature: 1, stopIds };
    const cached = await sampleBatch(policy, tok, repeated, { ...opts, rng: new Rng(9) });
    const full = await sampleBatch(policy, tok, repeated, { ...opts, rng: new Rng(9), useCache: false });
    expect(new Set(cached.map((r) => r.ids.length)).size).toBeGreaterThan(1);
    cached.forEach((row, b) => {
      expect(row.ids).toEqual(full[b]?.ids);
      expect(row.stopped).toBe(full[b]?.stopped);
      expectClose(row.logps, full[b]?.logps ?? []);
      expectClose(row.sampleLogps, full[b]?.sampleLogps ?? []);
    });
  });

  it('prefills in chunks of rows (a batch larger than memory holds) to the same rows as at once', async () => {
    for (const useCache of [true, false]) {
      const opts = { maxNewTokens: 12, temperature: 1, stopIds, useCache };
      const whole = await sampleBatch(policy, tok, prompts, { ...opts, rng: new Rng(5) });
      const before = tf.memory().numTensors;
      const chunked = await sampleBatch(policy, tok, prompts, { ...opts, rng: new Rng(5), prefillChunk: 1 });
      expect(tf.memory().numTensors).toBe(before);
      chunked.forEach((row, b) => {
        expect(row.ids).toEqual(whole[b]?.ids);
        expectClose(row.logps, whole[b]?.logps ?? []);
        expectClose(row.sampleLogps, whole[b]?.sampleLogps ?? []);
      });
    }
  });

  it.each([1, 0.7])(
    'returns log-probs that teacher-forced scoring at the same temperature (%s) reproduces',
    async (temperature) => {
      const rows = await sampleBatch(policy, tok, prompts, {
        maxNewTokens: 10,
        temperature,
        stopIds,
        rng: new Rng(11),
      });
      const seqs = rows.map((r, b) => [...(prompts[b] as number[]), ...r.ids]);
      const scored = await scoreSequences(policy, seqs, { temperature });
      const atOne = await scoreSequences(policy, seqs);
      let apart = 0;
      rows.forEach((r, b) => {
        const start = (prompts[b] as number[]).length - 1;
        const own = scored.logps[b]?.subarray(start, start + r.logps.length) ?? [];
        for (let i = 0; i < own.length; i++)
          expect(Math.abs((r.logps[i] as number) - (own[i] as number))).toBeLessThan(1e-5);
        const one = atOne.logps[b]?.subarray(start, start + r.logps.length) ?? [];
        for (let i = 0; i < one.length; i++)
          apart = Math.max(apart, Math.abs((r.logps[i] as number) - one[i]!));
      });
      // At T ≠ 1 the temperature-1 scores are a different distribution (the old, off-policy bug).
      if (temperature !== 1) expect(apart).toBeGreaterThan(1e-3);
    },
  );

  it('is deterministic for a seed, and temperature 0 is greedy', async () => {
    const a = await sampleBatch(policy, tok, prompts, { maxNewTokens: 8, temperature: 1, rng: new Rng(5) });
    const b = await sampleBatch(policy, tok, prompts, { maxNewTokens: 8, temperature: 1, rng: new Rng(5) });
    const c = await sampleBatch(policy, tok, prompts, { maxNewTokens: 8, temperature: 1, rng: new Rng(6) });
    expect(a.map((r) => r.ids)).toEqual(b.map((r) => r.ids));
    expect(a.map((r) => r.ids)).not.toEqual(c.map((r) => r.ids));
    const greedy = await sampleBatch(policy, tok, prompts.slice(0, 1), {
      maxNewTokens: 1,
      temperature: 0,
      rng: new Rng(1),
    });
    // The greedy token is the argmax of the next-token distribution after the prompt.
    const ids = prompts[0] as number[];
    const next = tf.tidy(() => {
      const { hidden } = forward(policy, {
        tokens: tf.tensor2d([ids], [1, ids.length], 'int32'),
        embed: 'train',
      });
      return tf.logSoftmax(
        lmLogits(policy, hidden)
          .slice([0, ids.length - 1, 0], [1, 1, -1])
          .reshape([-1]),
      );
    });
    const dist = Array.from(await next.data());
    next.dispose();
    expect(greedy[0]?.ids[0]).toBe(dist.indexOf(Math.max(...dist)));
    expect(greedy[0]?.logps[0]).toBeCloseTo(Math.max(...dist), 4);
  });

  it('never samples banned tokens and refuses prompts beyond the context', async () => {
    const rows = await sampleBatch(policy, tok, prompts, {
      maxNewTokens: 30,
      temperature: 3,
      rng: new Rng(9),
      stopIds: [],
    });
    const banned = ['<pad>', '<bos>', '<unk>', '<turn>', '<state>', '<reward>', '<cut>'].map((t) =>
      tok.idOf(t),
    );
    for (const r of rows) for (const id of r.ids) expect(banned).not.toContain(id);
    await expect(
      sampleBatch(policy, tok, prompts, { maxNewTokens: 90, temperature: 1, rng: new Rng(1) }),
    ).rejects.toThrow(/context 96/);
  });

  it('keeps the tensor count flat across 20 sampling and scoring calls', async () => {
    const round = async (i: number) => {
      const rows = await sampleBatch(policy, tok, prompts, {
        maxNewTokens: 6,
        temperature: 1,
        rng: new Rng(i),
      });
      const seqs = rows.map((r, b) => [...(prompts[b] as number[]), ...r.ids, tok.special['<eos>']]);
      await scoreSequences(policy, seqs);
      await predictValues(critic, seqs);
    };
    await round(0);
    const before = tf.memory().numTensors;
    for (let i = 1; i <= 20; i++) await round(i);
    expect(tf.memory().numTensors).toBe(before);
  });
});
