// The memory estimate, computed by hand for small shapes, and the refusal it gives.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import {
  estimateRunMemory,
  formatBytes,
  isOutOfMemory,
  memoryField,
  memoryPlan,
  memoryRefusal,
} from './memory.js';

// nano: D 64, L 2, H 4. Floats per row (rowBytes.ts): update L(10·H·T² + 140·T·D) + 20·R·V;
// forward L(4.5·H·T² + 55·T·D) + 7·R·V; KV cache 2 × 2·L·T·D a row.
const update = (T: number, R: number, V: number) => 4 * (2 * (10 * 4 * T * T + 140 * T * 64) + 20 * R * V);
const forward = (T: number, R: number, V: number) => 4 * (2 * (4.5 * 4 * T * T + 55 * T * 64) + 7 * R * V);

describe('estimateRunMemory', () => {
  it('takes the update step of the kept batch: rows × the update bytes of a row', () => {
    // 4 × 8 rollouts, 3 turns in windows of 1 → 96 samples; 4 steps → 24 rows; the LM head on
    // R = 1 turn × 40 response tokens of each window.
    const c = {
      ...defaultConfig(),
      groups: 4,
      groupSize: 8,
      maxTurns: 3,
      historyTurns: 1,
      contextLength: 256,
      stepsPerIteration: 4,
    };
    expect(c.maxTokensPerTurn).toBe(40);
    expect(estimateRunMemory(c, 78)).toEqual({
      phase: 'update',
      rows: 24,
      T: 256,
      bytes: 24 * update(256, 40, 78),
    });
    expect(update(256, 40, 78)).toBe(4 * (2 * (2_621_440 + 2_293_760) + 62_400));
    // With the env's tokens in the loss the LM head runs on every position.
    expect(estimateRunMemory({ ...c, lossOnEnvTokens: true }, 78).bytes).toBe(24 * update(256, 256, 78));
  });

  it('cuts the update into micro-batches and scoring into chunks that fit a budget', () => {
    // 8 × 16 rollouts of 5 one-turn windows, minibatch 32 trajectories: 160 rows a step, about
    // 6 GiB; 1.5 GiB holds ⌊1.5 GiB / 38.4 MiB⌋ = 40 rows at a time.
    const c = { ...defaultConfig(), maxTurns: 5, historyTurns: 1, contextLength: 256 };
    expect(memoryPlan(c, 102)).toEqual({ stepRows: 160, microRows: 160, scoreRows: 32 });
    const budget = 1.5 * 2 ** 30;
    const rows = Math.floor(budget / update(256, 40, 102));
    expect(rows).toBe(40);
    expect(memoryPlan(c, 102, budget)).toEqual({ stepRows: 160, microRows: rows, scoreRows: 32 });
    // The peak is then the rollout's: its prefill takes as many of the 128 prompts at a time as fit.
    const e = estimateRunMemory(c, 102, budget);
    expect(e).toMatchObject({ phase: 'rollout', rows: 128 });
    expect(e.bytes).toBeLessThanOrEqual(budget);
    // With 2 × 16 rollouts (32 trajectories, 160 rows a step) the update's 40 rows are the peak.
    expect(estimateRunMemory({ ...c, groups: 2 }, 102, budget)).toEqual({
      phase: 'update',
      rows,
      T: 256,
      bytes: rows * update(256, 40, 102),
    });
    // A 64 MiB budget holds one update row and 4 scoring rows of 16.0 MiB.
    expect(forward(256, 40, 102)).toBe(16_760_384);
    expect(memoryPlan(c, 102, 2 ** 26)).toEqual({ stepRows: 160, microRows: 1, scoreRows: 4 });
  });

  it('counts the rollout as the KV cache of every row and the prefill of the rows that fit beside it', () => {
    const c = {
      ...defaultConfig(),
      groups: 8,
      groupSize: 16,
      minibatch: 1,
      filterMode: 'oversample' as const,
      filterRatio: 0.25,
      contextLength: 64,
    };
    // 8 × 16 ÷ 0.25 = 512 rows decoding; 64 tokens, nano.
    const kv = 2 * 4 * 512 * 2 * 2 * 64 * 64;
    const e = estimateRunMemory(c, 100);
    expect(e.phase).toBe('rollout');
    expect(e.bytes).toBe(kv + 512 * forward(64, 1, 100));
    // Under a budget the prefill runs in chunks: ⌊(budget − cache) / row⌋ rows at a time.
    const budget = kv + 100 * forward(64, 1, 100) + 1;
    expect(estimateRunMemory(c, 100, budget)).toMatchObject({
      phase: 'rollout',
      bytes: kv + 100 * forward(64, 1, 100),
    });
  });
});

describe('memoryRefusal', () => {
  it('blames the model size when a smaller model fits, and prints sizes that differ', () => {
    const c = { ...defaultConfig(), groups: 64, groupSize: 64, contextLength: 256, historyTurns: 1 };
    const small = { ...c, modelSize: 'small' as const };
    // Just under what small's rollout needs, far above what nano's needs.
    const need = estimateRunMemory(small, 78, 2 ** 40).bytes;
    expect(estimateRunMemory(small, 78, need).phase).toBe('rollout');
    const budget = need * 0.99;
    expect(estimateRunMemory(c, 78, budget).bytes).toBeLessThan(budget);
    expect(memoryField(small, 78, budget)).toBe('modelSize');
    // Too large even for nano: the rollout's field.
    expect(memoryField({ ...c, contextLength: 512, maxTurns: 5 }, 3585, 2 ** 20)).toBe('groups');
    // One update row larger than the budget: the context length.
    expect(memoryField({ ...c, groups: 1, groupSize: 1 }, 78, 2 ** 20)).toBe('contextLength');
    // One row of small's update at 1024 tokens, against just under it: both sizes with two
    // decimals, never "1.5 … the 1.5".
    const one = { ...small, groups: 1, groupSize: 1, contextLength: 1024 };
    const row = estimateRunMemory(one, 78, 1).bytes;
    const text = memoryRefusal(one, 78, 'wasm', row - 2 ** 24);
    expect(text).toMatch(/^needs about [\d.]+ GiB at its largest step \(update: 1 rows/);
    const [, a, b] = text.match(/needs about ([\d.]+ \w+) .* more than the ([\d.]+ \w+)/) ?? [];
    expect(a).not.toBe(b);
  });

  it('fits the default shapes on WASM and refuses 64 × 64 rollouts at a long context, saying what to lower', () => {
    const wasm = 1.5 * 2 ** 30;
    const sokoban = { ...defaultConfig(), maxTurns: 5, historyTurns: 1, contextLength: 256 };
    expect(memoryRefusal(sokoban, 102, 'wasm', wasm)).toBe('');
    const big = { ...sokoban, groups: 64, groupSize: 64, contextLength: 512 };
    const text = memoryRefusal(big, 3585, 'wasm', wasm);
    expect(text).toMatch(
      /^needs about [\d.]+ GiB at its largest step \(rollout: 4096 rows × 512 tokens, vocabulary 3585\)/,
    );
    expect(text).toMatch(
      /more than the 1\.5 GiB wasm can hold: lower groups, group size or the context length$/,
    );
  });
});

describe('isOutOfMemory', () => {
  it("knows tfjs-wasm's and the browser's ways of saying it", () => {
    expect(isOutOfMemory(new Error('table index is out of bounds'))).toBe(true);
    expect(isOutOfMemory(new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded'))).toBe(
      true,
    );
    expect(isOutOfMemory(new Error('memory access out of bounds'))).toBe(true);
    expect(isOutOfMemory(new Error('Array buffer allocation failed'))).toBe(true);
    expect(isOutOfMemory(new Error('contextLength 512 exceeds the base model'))).toBe(false);
  });
  it('formats sizes', () => {
    expect(formatBytes(1.5 * 2 ** 30)).toBe('1.5 GiB');
    expect(formatBytes(640 * 2 ** 20)).toBe('640 MiB');
  });
});
