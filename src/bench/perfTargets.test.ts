// Issue 22's targets from a run's figures: met or missed, and by how much when missed; the
// ratios of the roofline, the threads and the before/after sections. Values are given, not timed.
import { describe, expect, it } from 'vitest';
import { BEFORE_ISSUE_22, CHEAPER_PASSES_RECORDED, speedRatios, speedTargets } from './perfTargets.js';
import type { Measured } from './schema.js';

const split = { rolloutMs: 1, envMs: 0, scoringMs: 1, updateMs: 1, metricsMs: 0 };
function run(seconds: number, tokensPerSec: number, share: number, speedups: [number, number]): Measured {
  return {
    preset: {
      preset: 'echo-trap',
      backend: 'wasm',
      env: 'minigrid/DoorKey-5x5',
      iterations: 4,
      secondsPerIteration: seconds,
      split,
      projected200Seconds: 200 * seconds,
    },
    rollout: [
      {
        backend: 'wasm',
        size: 'nano',
        rows: 64,
        promptTokens: 64,
        newTokens: 16,
        cachedTokensPerSec: tokensPerSec,
        naiveTokensPerSec: 1,
        cacheSpeedup: 1,
      },
    ],
    roofline: {
      formula: '',
      rows: [
        {
          backend: 'wasm',
          label: 'WASM (SIMD)',
          software: false,
          matmul: { shapes: [], gflops: 20 },
          phases: [
            {
              phase: 'trainingStep',
              size: 'nano',
              shape: '8×128',
              flops: 1,
              ms: 1,
              gflops: 20 * share,
              share,
            },
          ],
        },
      ],
    },
    beforeAfter: {
      preset: {
        preset: 'echo-trap',
        backend: 'wasm',
        iterations: 4,
        before: { secondsPerIteration: seconds * speedups[0], split },
        after: { secondsPerIteration: seconds, split },
        speedup: speedups[0],
      },
      decoding: {
        backend: 'wasm',
        size: 'nano',
        rows: 64,
        promptTokens: 64,
        newTokens: 16,
        beforeTokensPerSec: tokensPerSec / speedups[1],
        afterTokensPerSec: tokensPerSec,
        speedup: speedups[1],
      },
      switches: [],
    },
    wasmThreads: null,
  } as unknown as Measured;
}

describe('issue 22 targets', () => {
  it('are met when every figure reaches its target, without a note', () => {
    const t = speedTargets(run(1.2, 4 * BEFORE_ISSUE_22.decodeTokensPerSec, 0.6, [2.5, 3.2]));
    expect(t.map((x) => x.met)).toEqual([true, true, true, true, true]);
    expect(t.every((x) => x.note === undefined)).toBe(true);
    expect(t[2]?.value).toBe(4);
  });

  it('say by how much each missed target is missed', () => {
    const t = speedTargets(run(3, BEFORE_ISSUE_22.decodeTokensPerSec, 0.2, [1.5, 1.2]));
    expect(t.map((x) => x.met)).toEqual([false, false, false, false, false]);
    expect(t[0]?.note).toMatch(/^missed by 1\.5 s \(2× the target/);
    expect(t[1]?.note).toBe('missed by 0.5×: 0.75 of the target');
    expect(t[2]?.note).toBe('missed by 2×: 0.33 of the target');
    expect(t[4]?.note).toBe('missed by 0.3: 4 of 20 GFLOP/s');
  });

  it('are not measured where the run has no figure; the retired before/after is the recorded one', () => {
    const m = { rollout: [], preset: null, memory: { iterations: 1 } } as unknown as Measured;
    const t = speedTargets(m);
    expect([0, 2, 4].map((i) => [t[i]?.value, t[i]?.met])).toEqual(Array(3).fill([null, null]));
    // A run made after the old paths were retired has no beforeAfter section: the recorded ratio,
    // said to be recorded, and missed by as much as it was.
    expect(t[1]).toMatchObject({ value: CHEAPER_PASSES_RECORDED.presetSpeedup, met: false });
    expect(t[1]?.name).toMatch(/recorded 2026-12-02; the old paths are retired/);
    expect(t[1]?.note).toBe('missed by 0.07×: 0.97 of the target');
    expect(t[3]).toMatchObject({ value: CHEAPER_PASSES_RECORDED.decodingSpeedup, met: false });
  });

  it('carry the roofline shares and the same-run speed-ups as ratios', () => {
    const r = speedRatios(run(1, 1, 0.25, [2, 3]));
    expect(r).toMatchObject({
      'rooflineShare.wasm.trainingStep.nano': 0.25,
      'cheaperPasses.presetIteration': 2,
      'cheaperPasses.decoding': 3,
    });
  });
});
