// The WASM-threads section from its pages' reports, hand-computed: medians per side, speed-ups
// (> 1: threads faster), and the largest difference between the builds' numbers. No browser runs
// here; the bench itself (npm run bench) drives Chromium.
import { describe, expect, it } from 'vitest';
import type { ThreadsReport } from './browser/threads.worker.js';
import { threadsSection } from './wasmThreadsBench.js';

const report = (threads: boolean, over: Partial<ThreadsReport>): ThreadsReport => ({
  threads,
  threadCount: threads ? 2 : 1,
  reason: '',
  backend: 'wasm',
  stepMs: 100,
  scoreMs: 50,
  decodeTokensPerSec: 200,
  matmul: { shapes: [], gflops: 4 },
  trainerRows: [
    { 'actor/pgLoss': 0.5, 'rollout/successRate': 0.25 },
    { 'actor/pgLoss': 0.4, 'rollout/successRate': 0.5 },
  ],
  stepLosses: [1, 0.9, 0.8],
  ...over,
});

describe('threadsSection', () => {
  it('takes each side’s medians, their ratios, and the first round’s largest difference', () => {
    const off = [report(false, { stepMs: 120 }), report(false, { stepMs: 100, scoreMs: 70 })];
    const on = [
      report(true, {
        stepMs: 60,
        matmul: { shapes: [], gflops: 8 },
        decodeTokensPerSec: 300,
        trainerRows: [
          { 'actor/pgLoss': 0.5, 'rollout/successRate': 0.25 },
          { 'actor/pgLoss': 0.43, 'rollout/successRate': 0.5 },
        ],
        stepLosses: [1, 0.95, 0.8],
      }),
      report(true, { stepMs: 40, scoreMs: 25 }),
    ];
    const s = threadsSection({ on, off }, 2, 'Chromium 1', 4);
    // Medians of two are the lower value (index ⌊(n − 1) / 2⌋ of the sorted list).
    expect(s.off).toEqual({ matmulGflops: 4, stepMs: 100, scoreMs: 50, decodeTokensPerSec: 200 });
    expect(s.on).toEqual({ matmulGflops: 4, stepMs: 40, scoreMs: 25, decodeTokensPerSec: 200 });
    expect(s.speedup).toEqual({ matmul: 1, trainingStep: 2.5, scoring: 2, decoding: 1 });
    expect(s.browser).toBe('Chromium 1 (headless), 2 of 4 logical cores');
    expect(s.threadCount).toBe(2);
    expect(s.iterations).toBe(2);
    expect(s.worstMetric).toBe('actor/pgLoss (iteration 2)');
    expect(s.maxAbsDiff.trainerMetrics).toBeCloseTo(0.03, 12);
    expect(s.maxAbsDiff.stepLosses).toBeCloseTo(0.05, 12);
  });
});
