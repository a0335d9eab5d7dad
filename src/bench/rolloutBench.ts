// Rollout decoding speed: batched sampling (sampling.ts) of `newTokens` tokens for `rows`
// prompts with the KV cache against the naive path that recomputes the whole sequence for every
// new token (useCache: false), on the active backend and in the same run, so the ratio is
// measured rather than assumed. No stop tokens: every row generates every token.
import type { ModelSize } from '../core/model/config.js';
import { modelConfig } from '../core/model/config.js';
import { createPolicy, disposeModel } from '../core/model/params.js';
import { sampleBatch } from '../core/model/sampling.js';
import { Rng } from '../core/rng.js';
import type { Tokenizer } from '../core/tokenizer.js';

export interface RolloutRate {
  size: ModelSize;
  rows: number;
  promptTokens: number;
  newTokens: number;
  cachedTokensPerSec: number;
  naiveTokensPerSec: number;
  /** cached / naive tokens per second. */
  cacheSpeedup: number;
}

/** Times one cached and one naive sampling pass (after a cached warm-up) on the active backend. */
export async function benchRollout(
  tok: Tokenizer,
  size: ModelSize,
  rows: number,
  promptTokens: number,
  newTokens: number,
): Promise<RolloutRate> {
  const rng = new Rng(11);
  const policy = createPolicy(modelConfig(size, tok.size, promptTokens + newTokens), rng.fork('policy'));
  const first = Object.keys(tok.special).length;
  const prompts = Array.from({ length: rows }, () =>
    Array.from({ length: promptTokens }, () => rng.int(first, tok.size)),
  );
  const sample = async (useCache: boolean) => {
    const t0 = performance.now();
    await sampleBatch(policy, tok, prompts, {
      maxNewTokens: newTokens,
      temperature: 1,
      rng: new Rng(2),
      stopIds: [],
      useCache,
    });
    return performance.now() - t0;
  };
  try {
    await sample(true);
    const cachedMs = await sample(true);
    const naiveMs = await sample(false);
    const perSec = (ms: number) => Math.round((1000 * rows * newTokens) / ms);
    return {
      size,
      rows,
      promptTokens,
      newTokens,
      cachedTokensPerSec: perSec(cachedMs),
      naiveTokensPerSec: perSec(naiveMs),
      cacheSpeedup: Math.round((100 * naiveMs) / cachedMs) / 100,
    };
  } finally {
    disposeModel(policy);
  }
}
