// A turn sampled on two workers gives the one batch's rows to the bit, and leaves the stream
// where the one batch leaves it: the echo-trap model on WASM, 64 prompts of 4 kinds, sampled and
// greedy, with the other half sampled by sampleShare (what the second worker runs) on a copy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeModel, modelFromWeightValues } from '../core/model/params.js';
import { sampleBatch } from '../core/model/sampling.js';
import { sampleShare } from '../core/rl/referenceHost.js';
import { type SampleApart, splitSampler } from '../core/rl/splitSample.js';
import { Rng } from '../core/rng.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import type { LoadedBase } from '../workers/node/baseModel.js';
import { presetSetup } from './presetBench.js';

let loaded: LoadedBase;
beforeAll(async () => {
  await setupNodeBackend('wasm');
  ({ loaded } = await presetSetup('echo-trap', 'wasm', 2));
});
afterAll(() => disposeModel(loaded.base.policy));

const bits = (a: Float32Array) => Array.from(new Uint32Array(Float32Array.from(a).buffer));

describe('a turn split over two workers', () => {
  it.each([0.7, 0])('gives the one batch’s rows and stream at temperature %s', async (temperature) => {
    const { policy, tokenizer: tok } = loaded.base;
    const kinds = ['You see a yellow key 1 step right', 'get to the green goal', 'turn left', 'go forward'];
    // 63 rows (the halves differ in size), the longest prompts all in the second half, so the
    // halves' own padded lengths differ from the whole batch's.
    const prompts = Array.from({ length: 63 }, (_, i) =>
      tok.encode(i < 32 ? (kinds[(i % 3) + 1] as string) : (kinds[i % 4] as string)),
    );
    expect(Math.max(...prompts.slice(0, 32).map((p) => p.length))).toBeLessThan(
      Math.max(...prompts.map((p) => p.length)),
    );
    const opts = { maxNewTokens: 24, temperature };
    const [one, two] = [new Rng(5), new Rng(5)];
    one.float(); // somewhere along the stream
    two.float();
    const whole = await sampleBatch(policy, tok, prompts, { ...opts, rng: one });
    let shares = 0;
    const apart: SampleApart = {
      async sample(weights, share) {
        shares++;
        const copy = modelFromWeightValues('policy', policy.config, weights, false);
        try {
          return await sampleShare(copy, tok, share);
        } finally {
          disposeModel(copy);
        }
      },
    };
    const split = await splitSampler(policy, tok, apart)(prompts, { ...opts, rng: two });
    expect(shares).toBe(1);
    expect(new Set(whole.map((r) => r.ids.length)).size).toBeGreaterThan(1); // rows stop apart
    expect(split.map((r) => r.ids)).toEqual(whole.map((r) => r.ids));
    expect(split.map((r) => bits(r.logps))).toEqual(whole.map((r) => bits(r.logps)));
    expect(split.map((r) => bits(r.sampleLogps))).toEqual(whole.map((r) => bits(r.sampleLogps)));
    expect(two.state()).toEqual(one.state());
  });
});
