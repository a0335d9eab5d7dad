// The study rule by hand: an arm prevents the trap when it is trapped in at most 2 of 8, Fisher's
// one-sided p against the control is at most 0.05 and its last 10 end higher than the control's
// seed by seed (signed-rank p at most 0.05); fewer traps without a higher end do not prevent it;
// it does not when its count is within 1 of the control's; otherwise it is unclear. And a control that does not repeat its stored runs
// row for row (timings and throughputs aside) is named by seed.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import { fisherLess } from '../../core/stats.js';
import type { CalRun } from './calibrate.js';
import type { ReportRun } from './reportRuns.js';
import { tourRun } from './roundReport.js';
import { armVerdict, type StudyRule, unreproduced } from './studyReport.js';

const rule: StudyRule = {
  control: 'vanilla',
  frozen: 'frozen',
  maxFrozenFlagged: 1,
  prevents: { maxTrapped: 2, fisherP: 0.05 },
  noEffectWithin: 1,
};

/** 8 runs, the first `trapped` of them trapped, each ending at `final`. */
function runs(trapped: number, final: number): ReportRun[] {
  return Array.from(
    { length: 8 },
    (_, i) =>
      ({
        seed: 301 + i,
        final: final + i / 100,
        heldOut: [0.3, final],
        verdict: { verdict: i < trapped ? 'trapped' : 'held' },
      }) as unknown as ReportRun,
  );
}

describe('armVerdict', () => {
  const control = runs(7, 0);
  it('prevents the trap: 1 of 8 against 7 of 8 (Fisher p = 0.005)', () => {
    const v = armVerdict('s-both', runs(1, 0.5), control, rule);
    expect(v.fisherP).toBeCloseTo(fisherLess(1, 8, 7, 8), 12);
    expect(v.fisherP as number).toBeLessThan(0.05);
    expect(v.verdict).toBe('prevents the trap');
    // Every seed ends 0.5 higher than the control's: the signed-rank test says so.
    expect(v.lastVsControl?.mean).toBeCloseTo(0.5, 12);
    expect(v.lastVsControl?.pairs).toBe(8);
    expect(v.lastVsControl?.pGreater as number).toBeLessThan(0.01);
    // Greedy held-out at the end: 0.5 against 0 on every seed, a tie each, so a zero-spread 0.5.
    expect(v.heldOutVsControl?.mean).toBeCloseTo(0.5, 12);
  });
  it('fewer traps without a higher end do not prevent it (an arm that never rises)', () => {
    // 1 of 8 trapped, the other 7 collapsed without a rise: every seed ends at the control's 0.
    const never = runs(1, 0).map((r, i) =>
      i === 0 ? r : ({ ...r, verdict: { verdict: 'collapsed' } } as unknown as ReportRun),
    );
    const v = armVerdict('random-keep', never, control, rule);
    expect(v.fisherP as number).toBeLessThan(0.05);
    expect(v.lastVsControl?.mean).toBeCloseTo(0, 12);
    expect(v.verdict).toBe('does not prevent it: fewer traps, but it ends no higher');
    // Higher on 7 seeds (0.20–0.26) and lower on one by the least (rank 1 of 8): W− = 1, so the
    // signed-rank p = 2/256 (no sign, or only rank 1, as low) ≤ 0.05.
    const shifted = (lower: Record<number, number>) =>
      runs(1, 0).map((r, i) => ({ ...r, final: r.final + (lower[i] ?? 0.2 + i / 100) }));
    const m = armVerdict('s-both', shifted({ 7: -0.05 }), control, rule);
    expect(m.lastVsControl?.pGreater).toBeCloseTo(2 / 256, 12);
    expect(m.verdict).toBe('prevents the trap');
    // Lower on two seeds by the most (ranks 7 and 8): W− = 15, p = 95/256 (the subsets of 1..8
    // summing to at most 15), so fewer traps but no higher end.
    const two = armVerdict('s-both', shifted({ 6: -0.5, 7: -0.6 }), control, rule);
    expect(two.lastVsControl?.pGreater).toBeCloseTo(95 / 256, 12);
    expect(two.verdict).toBe('does not prevent it: fewer traps, but it ends no higher');
  });
  it('does not prevent it within 1 of the control; unclear between', () => {
    expect(armVerdict('critic-alone', runs(6, 0), control, rule).verdict).toBe('does not prevent it');
    // 3 of 8 against 7 of 8: more than 2 trapped, and 4 fewer than the control.
    expect(armVerdict('filter-alone', runs(3, 0), control, rule).verdict).toBe('unclear at this many seeds');
    // 2 of 8 against a control trapped 4 of 8: Fisher p = 0.3, not below 0.05.
    expect(armVerdict('x', runs(2, 0), runs(4, 0), rule).verdict).toBe('unclear at this many seeds');
    expect(armVerdict('vanilla', control, control, rule).verdict).toBe('the control');
    expect(armVerdict('frozen', runs(0, 0), control, rule).verdict).toBe('not judged');
  });
});

describe('unreproduced', () => {
  const run = (seed: number, rows: MetricRow[]): CalRun => ({
    name: `seed-${seed}`,
    dir: `seed-${seed}`,
    config: { ...defaultConfig(), seed },
    rows,
  });
  it('names the seeds whose rows differ, timings and throughputs aside, and skips seeds not stored', () => {
    const a = [
      { iteration: 0, 'rollout/success': 0.25, 'time/rolloutMs': 10, 'perf/tokensPerSec': 500 },
    ] as unknown as MetricRow[];
    const aSlow = [
      { iteration: 0, 'rollout/success': 0.25, 'time/rolloutMs': 99, 'perf/tokensPerSec': 51 },
    ] as unknown as MetricRow[];
    const b = [{ iteration: 0, 'rollout/success': 0.5, 'time/rolloutMs': 10 }] as unknown as MetricRow[];
    expect(unreproduced([run(301, aSlow), run(302, b), run(303, a)], [run(301, a), run(302, a)])).toEqual([
      302,
    ]);
  });
});

describe('tourRun', () => {
  const run = (seed: number, verdict: string, collapseIteration: number | null) =>
    ({ seed, verdict: { verdict, collapseIteration } }) as unknown as ReportRun;
  it('takes the trapped run with the median fall: the lower middle one, ties by seed', () => {
    const runs = [
      run(301, 'trapped', 150),
      run(302, 'trapped', 90),
      run(303, 'held', null),
      run(304, 'trapped', 120),
      run(305, 'trapped', 120),
      run(306, 'trapped', 170),
    ];
    // Falls 90, 120 (304), 120 (305), 150, 170: the median is the third, seed 305.
    expect(tourRun(runs)?.seed).toBe(305);
    // Four of them (without 306): 90, 120, 120, 150: the lower middle one is seed 304.
    expect(tourRun(runs.slice(0, 5))?.seed).toBe(304);
    expect(tourRun([run(303, 'held', null)])).toBeNull();
  });
});
