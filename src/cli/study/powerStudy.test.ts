import { describe, expect, it } from 'vitest';
import type { RunVerdict } from '../../core/metrics/verdict.js';
import { holm } from '../../core/stats.js';
import { powerVerdicts } from './powerStudy.js';
import type { ReportRun } from './reportRuns.js';

describe('Holm’s adjustment', () => {
  it('multiplies the i-th smallest by m − i and keeps the order monotone, as by hand', () => {
    // Sorted 0.01, 0.02, 0.04 of m = 3: 0.03, 0.04, max(0.04, 0.04) = 0.04.
    const out = holm([0.04, 0.01, 0.02]);
    expect(out[0]).toBeCloseTo(0.04, 12);
    expect(out[1]).toBeCloseTo(0.03, 12);
    expect(out[2]).toBeCloseTo(0.04, 12);
    expect(holm([0.5, 0.6])).toEqual([1, 1]);
  });
});

/** A run of `seed` with its verdict and its last 10 (enough of ReportRun for the rule). */
const run = (seed: number, trapped: boolean, final: number): ReportRun =>
  ({
    seed,
    final,
    verdict: {
      verdict: trapped ? 'trapped' : 'held',
      iterations: 200,
      minIterations: 20,
      z: 3,
      riseZ: 5,
      fallZ: trapped ? 5 : 1,
      start: 0.2,
      last: final,
    } as RunVerdict,
  }) as unknown as ReportRun;

const seeds = Array.from({ length: 16 }, (_, i) => 401 + i);
const rule = {
  control: 'vanilla',
  frozen: 'frozen',
  maxFrozenFlagged: 1,
  prevents: { maxTrapped: 16, fisherP: 0.05 },
  noEffectWithin: 2,
  multiplicity: 'holm' as const,
  baseline: 'smaller-step',
  maxBaselineTrapped: 2,
};

describe('round 13’s verdicts', () => {
  it('an arm with few traps that ends higher than vanilla but lower than the smaller step', () => {
    const cells = {
      vanilla: seeds.map((s, i) => run(s, i < 14, 0.05)),
      frozen: seeds.map((s) => run(s, false, 0.2)),
      'smaller-step': seeds.map((s) => run(s, false, 0.9)),
      arm: seeds.map((s, i) => run(s, i < 1, 0.5 + i * 0.001)),
      same: seeds.map((s, i) => run(s, i < 13, 0.05 + i * 0.001)),
    };
    const v = powerVerdicts(cells, Object.keys(cells), rule);
    const by = Object.fromEntries(v.map((x) => [x.arm, x]));
    expect(by.arm?.verdict).toBe('prevents the trap, but learns less than a smaller step');
    expect(by.arm?.holmP).toBeGreaterThanOrEqual(by.arm?.fisherP as number);
    expect(by.arm?.last?.n).toBe(16);
    expect(by.same?.verdict).toBe('does not prevent it');
    expect(by['smaller-step']?.verdict).toBe('prevents the trap');
    expect(v.map((x) => x.arm)).toEqual(['smaller-step', 'arm', 'same']);
  });
});
