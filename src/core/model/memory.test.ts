// The memory estimate, computed by hand for small shapes, and the refusal it gives.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import { estimateRunMemory, formatBytes, isOutOfMemory, memoryField, memoryRefusal } from './memory.js';

describe('estimateRunMemory', () => {
  it('takes the update step of the kept batch: rows × (T·L(16D + 3HT) + 3·R·V) floats', () => {
    // nano: D 64, L 2, H 4. 4 × 8 rollouts, 3 turns in windows of 1 → 96 samples; 4 steps → 24 rows;
    // the LM head on R = 1 turn × 40 response tokens of each window.
    const c = {
      ...defaultConfig(),
      groups: 4,
      groupSize: 8,
      maxTurns: 3,
      historyTurns: 1,
      contextLength: 256,
      stepsPerIteration: 4,
    };
    const e = estimateRunMemory(c, 78);
    const floats = 24 * (256 * 2 * (16 * 64 + 3 * 4 * 256) + 3 * 40 * 78);
    expect(c.maxTokensPerTurn).toBe(40);
    expect(e).toEqual({ phase: 'update', rows: 24, T: 256, bytes: 4 * floats });
    // With the env's tokens in the loss the LM head runs on every position.
    const all = estimateRunMemory({ ...c, lossOnEnvTokens: true }, 78);
    expect(all.bytes).toBe(4 * 24 * (256 * 2 * (16 * 64 + 3 * 4 * 256) + 3 * 256 * 78));
  });

  it('uses the minibatch when steps are not fixed, and oversampled rollouts for the rollout phase', () => {
    const c = { ...defaultConfig(), groups: 8, groupSize: 16, minibatch: 32, stepsPerIteration: 0 };
    expect(estimateRunMemory(c, 100).rows).toBe(32);
    const over = {
      ...c,
      filterMode: 'oversample' as const,
      filterRatio: 0.25,
      minibatch: 1,
      contextLength: 64,
    };
    // 8 × 16 ÷ 0.25 = 512 rows decoding: the KV cache outweighs a one-row update.
    const e = estimateRunMemory(over, 100);
    expect(e.phase).toBe('rollout');
    expect(e.bytes).toBe(4 * 512 * (2 * 2 * 64 * 64 + 2 * 100));
  });
});

describe('memoryRefusal', () => {
  it('blames the model size when a smaller model fits, and prints sizes that differ', () => {
    const c = {
      ...defaultConfig(),
      groups: 4,
      groupSize: 8,
      contextLength: 256,
      historyTurns: 1,
      stepsPerIteration: 4,
    };
    const small = { ...c, modelSize: 'small' as const };
    const need = estimateRunMemory(small, 78).bytes;
    // A budget just under what small needs, far above what nano needs.
    const budget = need * 0.99;
    expect(estimateRunMemory(c, 78).bytes).toBeLessThan(budget);
    expect(memoryField(small, 78, budget)).toBe('modelSize');
    // Too large even for nano: the phase's first field.
    expect(
      memoryField({ ...c, groups: 64, groupSize: 64, contextLength: 512, maxTurns: 5 }, 3585, 2 ** 20),
    ).toBe('stepsPerIteration');
    // 1.5 GiB needed against a 1.49 GiB budget: both with two decimals, never "1.5 … the 1.5".
    const text = memoryRefusal(small, 78, 'wasm', need - 2 ** 24);
    const [, a, b] = text.match(/needs about ([\d.]+ \w+) .* more than the ([\d.]+ \w+)/) ?? [];
    expect(a).not.toBe(b);
  });

  it('fits the echo-trap scale on WASM and refuses 64 × 64 rollouts at a long context, saying what to lower', () => {
    const small = {
      ...defaultConfig(),
      groups: 4,
      groupSize: 8,
      contextLength: 256,
      historyTurns: 1,
      stepsPerIteration: 4,
    };
    expect(memoryRefusal(small, 78, 'wasm', 1.5 * 2 ** 30)).toBe('');
    const big = { ...small, groups: 64, groupSize: 64, contextLength: 512, maxTurns: 5 };
    const text = memoryRefusal(big, 3585, 'wasm', 1.5 * 2 ** 30);
    expect(text).toMatch(
      /^needs about [\d.]+ GiB at its largest step \(update: \d+ rows × 512 tokens, vocabulary 3585\)/,
    );
    expect(text).toMatch(
      /more than the 1\.5 GiB wasm can hold: raise steps per iteration or lower the minibatch/,
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
