// The rollout to the bit: one iteration's rollouts at the echo-trap preset's shape (4 groups of
// 16 from 4 start states, 3 turns, the shipped DoorKey-5x5 base model, WASM), sampled and
// greedy, hashed over every turn's response ids and log-probs. The hashes were recorded at
// commit 8d1713c, before the decoding work of issue 47 (distinct prompts prefilled once, stopped
// rows leaving the decode batch, the LM head laid out once a call): a change to decoding that
// moves any token or any log-prob's last bit fails here; so does a split of each turn over two
// workers that does not give the one batch's numbers.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../core/config.js';
import { disposeModel, modelFromWeightValues } from '../core/model/params.js';
import { sampleShare } from '../core/rl/referenceHost.js';
import { rollout } from '../core/rl/rollout.js';
import { rolloutSettings } from '../core/rl/runSchedule.js';
import { type SampleApart, splitSampler } from '../core/rl/splitSample.js';
import { Rng } from '../core/rng.js';
import { inProcessPools } from '../envs/pools.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import type { LoadedBase } from '../workers/node/baseModel.js';
import { presetSetup } from './presetBench.js';

let config: Config;
let loaded: LoadedBase;

beforeAll(async () => {
  await setupNodeBackend('wasm');
  ({ config, loaded } = await presetSetup('echo-trap', 'wasm', 2));
});
afterAll(() => disposeModel(loaded.base.policy));

/** The second worker's half, sampled here on a copy of the policy (what criticService runs). */
const apart: SampleApart = {
  async sample(weights, share) {
    const copy = modelFromWeightValues('policy', loaded.base.policy.config, weights, false);
    try {
      return await sampleShare(copy, loaded.base.tokenizer, share);
    } finally {
      disposeModel(copy);
    }
  },
};

/**
 * sha-256 (first 16 hex digits) of every turn's response ids and log-probs, and the token count;
 * with `split`, half of each turn's rows sampled by `apart` (splitSample.ts).
 */
async function rolloutHash(temperature: number, split = false): Promise<{ hash: string; tokens: number }> {
  const { pool } = inProcessPools(config.env);
  const starts = Array.from({ length: config.groups * config.groupSize }, (_, i) => {
    const group = Math.floor(i / config.groupSize);
    return { group, seed: 1000 + group };
  });
  const settings = { ...rolloutSettings(config, config.temperature), temperature };
  const { policy, tokenizer } = loaded.base;
  const sample = split ? splitSampler(policy, tokenizer, apart) : undefined;
  const r = await rollout(policy, tokenizer, pool, starts, settings, new Rng(42), sample);
  const h = createHash('sha256');
  let tokens = 0;
  for (const t of r.trajectories)
    for (const u of t.turns) {
      h.update(new Uint8Array(Int32Array.from(u.responseIds).buffer));
      h.update(new Uint8Array(Float32Array.from(u.logps).buffer));
      tokens += u.responseIds.length;
    }
  return { hash: h.digest('hex').slice(0, 16), tokens };
}

describe('the echo-trap shape’s rollout on WASM', () => {
  it('samples the recorded tokens and log-probs, to the bit', async () => {
    expect([config.groups, config.groupSize, config.maxTurns, config.temperature]).toEqual([4, 16, 3, 0.7]);
    expect(await rolloutHash(config.temperature)).toEqual({ hash: '8b58ffdda70d85ab', tokens: 5207 });
  });
  it('decodes the recorded greedy answers, to the bit', async () => {
    expect(await rolloutHash(0)).toEqual({ hash: '841e343ac46625d2', tokens: 5344 });
  });
  it('gives the same rollouts with half of every turn’s rows sampled by a second worker', async () => {
    expect(await rolloutHash(config.temperature, true)).toEqual({ hash: '8b58ffdda70d85ab', tokens: 5207 });
    expect(await rolloutHash(0, true)).toEqual({ hash: '841e343ac46625d2', tokens: 5344 });
  });
});
