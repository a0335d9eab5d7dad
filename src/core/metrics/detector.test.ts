// The echo-trap detector on hand-made series (the rule pre-registered in docs/echo-trap.md): the
// group-unit noise bound by hand, a rise and a fall to the start (a trap, at the iteration worked
// out by hand), half-way down (not a trap), spread between start states (not a trap), simulated
// frozen runs (not traps), a peak inside the warm-up (no verdict), convergence (not a trap).
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import { Rng } from '../rng.js';
import {
  binomialStdError,
  DEFAULT_DETECTOR,
  detectorOptionsFor,
  detectRun,
  EchoTrapDetector,
  noiseBound,
  windowStdError,
} from './detector.js';
import type { MetricRow } from './keys.js';

/** A run that learns, then falls into the trap: thinking templates first, success after. */
function collapseRun(seed: number): MetricRow[] {
  const rng = new Rng(seed);
  const rows: MetricRow[] = [];
  for (let i = 0; i < 80; i++) {
    const rise = Math.min(1, i / 30);
    const fall = i < 45 ? 0 : Math.min(1, (i - 45) / 15);
    const success = 0.2 + 0.5 * rise - 0.65 * fall + rng.normal(0, 0.03);
    const template = i < 35 ? 0 : Math.min(1, (i - 35) / 10);
    rows.push({
      iteration: i,
      'rollout/successRate': Math.max(0, success),
      'rollout/inGroupRewardStd': 0.4 * (1 - 0.95 * template) + rng.normal(0, 0.01),
      'reasoning/modalThinkShare': 0.1 + 0.8 * template,
      'reasoning/mi': 0.8 * (1 - 0.9 * template) + rng.normal(0, 0.02),
      'rollout/malformedRate': 0.05 + 0.6 * fall,
      'actor/entropy': 1.5 - 0.5 * rise + 1.0 * fall,
      'actor/gradNorm': i === 58 ? 50 : 1 + rng.normal(0, 0.05),
    });
  }
  return rows;
}

/** A healthy run: learns to a plateau below 1 and stays there. */
function stableRun(seed: number): MetricRow[] {
  const rng = new Rng(seed);
  return Array.from({ length: 80 }, (_, i) => ({
    iteration: i,
    'rollout/successRate': Math.max(0, 0.2 + 0.45 * Math.min(1, i / 30) + rng.normal(0, 0.04)),
    'rollout/inGroupRewardStd': 0.4 + rng.normal(0, 0.02),
    'reasoning/modalThinkShare': 0.1 + rng.normal(0, 0.02),
    'reasoning/mi': 0.7 + rng.normal(0, 0.03),
    'rollout/malformedRate': 0.05 + rng.normal(0, 0.01),
    'actor/entropy': 1.5 - 0.3 * Math.min(1, i / 40),
    'actor/gradNorm': 1 + rng.normal(0, 0.05),
  }));
}

function run(rows: MetricRow[]): EchoTrapDetector {
  const d = new EchoTrapDetector();
  for (const r of rows) d.update(r);
  return d;
}

describe('EchoTrapDetector', () => {
  it('flags a synthetic collapse, with a warning before it', () => {
    const d = run(collapseRun(1));
    const s = d.summary();
    expect(s.echoTrap).toBe(true);
    expect(s.collapseIteration).toBeGreaterThan(45);
    expect(s.collapseIteration).toBeLessThan(65);
    expect(s.peakSuccess).toBeGreaterThan(0.6);
    expect(s.finalSuccess).toBeLessThan(0.15);
    expect(s.firstWarningLead).toBeGreaterThan(0);
    expect(s.firstFired.modalThinkRise).toBeLessThan(s.collapseIteration!);
    expect(s.firstFired.thinkMiDrop).toBeLessThan(s.collapseIteration!);
    expect(s.firstFired.gradNormSpike).toBe(58);
    const collapse = d.events.find((e) => e.kind === 'collapse');
    expect(collapse?.message).toMatch(/echo trap: success rose/);
    const std = d.events.find((e) => e.signal === 'rewardStdDrop');
    expect(std?.kind).toBe('context');
    expect(std?.message).toMatch(/fell to \d+% of its start/);
  });

  it('does not flag a stable run and reports no false warnings', () => {
    for (const seed of [1, 2, 3]) {
      const s = run(stableRun(seed)).summary();
      expect(s.echoTrap).toBe(false);
      expect(s.falseWarnings).toBe(0);
      expect(s.firstWarningLead).toBeNull();
      expect(s.finalSuccess).toBeGreaterThan(0.55);
    }
  });

  it('tells convergence (std → 0 while success is high) from collapse', () => {
    const rows: MetricRow[] = Array.from({ length: 60 }, (_, i) => {
      const p = Math.min(1, i / 25);
      return {
        iteration: i,
        'rollout/successRate': 0.3 + 0.69 * p,
        'rollout/inGroupRewardStd': 0.45 * (1 - p) + 0.001,
      };
    });
    const d = run(rows);
    const s = d.summary();
    expect(s.echoTrap).toBe(false);
    expect(s.converged).toBe(true);
    const std = d.events.find((e) => e.signal === 'rewardStdDrop');
    expect(std?.kind).toBe('convergence');
    expect(std?.message).toMatch(/convergence, not collapse/);
  });

  it('reports recovery after a collapse: the rule held, but the run ended above its start', () => {
    const rows: MetricRow[] = Array.from({ length: 90 }, (_, i) => ({
      iteration: i,
      'rollout/successRate': i < 5 ? 0.2 : i < 20 ? 0.6 : i < 40 ? 0.05 : 0.6,
    }));
    const s = run(rows).summary();
    expect(s.collapseIteration).not.toBeNull();
    expect(s.echoTrap).toBe(false);
    expect(s.recovered).toBe(true);
  });
});

/** Rows with only the training success rate, one per value. */
const successRows = (xs: readonly number[]): MetricRow[] =>
  xs.map((x, i) => ({ iteration: i, 'rollout/successRate': x }));

/** Rows with the paired success and a constant between-group spread `sd`. */
const pairedRows = (xs: readonly number[], sd: number): MetricRow[] =>
  xs.map((x, i) => ({ iteration: i, 'rollout/pairedSuccessRate': x, 'rollout/groupSuccessStd': sd }));

describe('the collapse rule and its noise bound', () => {
  it('sizes the bound to the paired P groups of N, whatever the arm rolls out', () => {
    expect(detectorOptionsFor(defaultConfig() /* 8 × 16 */)).toEqual({ rollouts: 128, groups: 8 });
    expect(detectorOptionsFor({ groups: 4, groupSize: 8 })).toEqual({ rollouts: 32, groups: 4 });
    expect(DEFAULT_DETECTOR).toMatchObject({ window: 5, finalWindow: 10, warmup: 5, z: 3 });
  });

  it('computes the group-unit standard error by hand', () => {
    // Two iterations of 8 groups with between-group variances 0.09 and 0.04:
    // sqrt(((0.09 + 0.04) / 2) / (2 · 8)) = sqrt(0.0040625) = 0.0637377.
    expect(windowStdError([0.09, 0.04], 8)).toBeCloseTo(0.0637377, 6);
    // The binomial fallback's pieces, by hand: sqrt(0.25 · 0.75 / 32) = 0.0765466;
    // 3 · sqrt(0.4 · 0.6 · (1/160 + 1/160)) = 0.1643168.
    expect(binomialStdError(0.25, 32)).toBeCloseTo(0.0765466, 6);
    expect(noiseBound(0.25, 160, 0.55, 160, 3)).toBeCloseTo(0.1643168, 6);
    expect(noiseBound(0.2, 160, 0.3, 320, 1, 2)).toBeCloseTo(0.0428174 * Math.SQRT2, 6);
  });

  it('flags a rise and a fall to the start at the iteration worked out by hand', () => {
    // Start 0.25 (iterations 0–4), 0.55 for 5–24, 0.15 from 25 to 39; between-group sd 0.2 over
    // 8 groups. A 5-iteration window's SE is sqrt(0.04 / 40) = 0.031623, a 10-iteration one's
    // sqrt(0.04 / 80) = 0.022361. The rise 0.30 / (0.031623 · √2) = 6.71 SE. The trailing 10
    // points ending at t hold 34 − t points of 0.55 (t = 25…34), a mean of 0.15 + 0.04 (34 − t):
    // at or below the start 0.25 first at t = 32 (0.23), a fall of 0.32 / hypot(0.031623,
    // 0.022361) = 8.26 SE: the collapse, at iteration 32.
    const xs = Array.from({ length: 40 }, (_, i) => (i < 5 ? 0.25 : i < 25 ? 0.55 : 0.15));
    const d = detectRun({ groups: 8, groupSize: 4 }, pairedRows(xs, 0.2));
    const s = d.summary();
    expect(s.collapseIteration).toBe(32);
    expect(s.echoTrap).toBe(true);
    expect(s.startSuccess).toBeCloseTo(0.25, 10);
    expect(s.peakSuccess).toBeCloseTo(0.55, 10);
    expect(s.finalSuccess).toBeCloseTo(0.15, 10);
    // At the end: the rise 6.71 SE is the smaller of the two (the fall 0.40 / 0.038730 = 10.3).
    expect(d.finalZ).toBeCloseTo(0.3 / (Math.sqrt(0.04 / 40) * Math.SQRT2), 6);
    expect(d.events.find((e) => e.kind === 'collapse')?.message).toMatch(/rose from 25% at the start to 55%/);
  });

  it('does not call half-way down a trap: the run must end at or below its start', () => {
    // Start 0.25, peak 0.65, then 0.35 for the last 20: the old half-way-from-the-peak rule's
    // trap (0.35 ≤ 0.45), but above the start, so a learner that gave back some of its gain.
    const xs = Array.from({ length: 50 }, (_, i) => (i < 5 ? 0.25 : i < 30 ? 0.65 : 0.35));
    const s = detectRun({ groups: 8, groupSize: 4 }, pairedRows(xs, 0.2)).summary();
    expect(s.echoTrap).toBe(false);
    expect(s.collapseIteration).toBeNull();
    // A learner that rises and holds is not a trap either.
    const hold = Array.from({ length: 60 }, (_, i) => (i < 5 ? 0.2 : 0.5));
    expect(detectRun({ groups: 8, groupSize: 4 }, pairedRows(hold, 0.3)).summary().echoTrap).toBe(false);
  });

  it('treats a group as one unit: spread between start states is not a rise and a fall', () => {
    // Start 0.15, a 5-iteration bump to 0.35, then 0.15 for 30 iterations, 4 groups of 8.
    const xs = Array.from({ length: 40 }, (_, i) => (i >= 5 && i < 10 ? 0.35 : 0.15));
    // With the between-group sd 0.35 of 4 very different layouts: SE5 = sqrt(0.1225 / 20) =
    // 0.078262, the rise 0.20 / (0.078262 · √2) = 1.81 SE: noise.
    const grouped = detectRun({ groups: 4, groupSize: 8 }, pairedRows(xs, 0.35));
    expect(grouped.summary().echoTrap).toBe(false);
    expect(grouped.finalZ).toBeCloseTo(0.2 / (Math.sqrt(0.1225 / 20) * Math.SQRT2), 6);
    // The same series as 32 independent coin flips (rows without the spread: the binomial
    // fallback) reads 4.25 SE of rise and is flagged: what the old bound got wrong.
    const flips = detectRun({ groups: 4, groupSize: 8 }, successRows(xs));
    expect(flips.summary().echoTrap).toBe(true);
  });

  it('does not flag simulated frozen runs: 8 start states of unequal difficulty, 4 rollouts each', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const rng = new Rng(seed);
      const rows: MetricRow[] = Array.from({ length: 60 }, (_, i) => {
        const rates = Array.from({ length: 8 }, () => {
          const p = [0.02, 0.1, 0.3, 0.7][rng.int(0, 4)] as number;
          let k = 0;
          for (let j = 0; j < 4; j++) k += rng.float() < p ? 1 : 0;
          return k / 4;
        });
        const m = rates.reduce((a, b) => a + b, 0) / 8;
        const sd = Math.sqrt(rates.reduce((a, r) => a + (r - m) ** 2, 0) / 7);
        return { iteration: i, 'rollout/pairedSuccessRate': m, 'rollout/groupSuccessStd': sd };
      });
      expect(detectRun({ groups: 8, groupSize: 4 }, rows).summary().echoTrap).toBe(false);
    }
  });

  it('gives no verdict from a peak inside the warm-up (Bandit: best at iteration 0)', () => {
    const xs = [0.48, 0.03, 0.19, 0.16, 0.09, 0.27, 0.17, 0.14, 0.12, 0.06, 0.09, 0.02, 0.05, 0.14, 0.03];
    const d = run(successRows([...xs, ...Array<number>(25).fill(0)]));
    expect(d.summary().echoTrap).toBe(false);
    expect(d.events.filter((e) => e.kind === 'collapse')).toEqual([]);
    // Nothing can fire before a peak window and a fall window fit after the warm-up (20 points).
    const early = run(
      successRows([0.1, 0.1, 0.1, 0.1, 0.1, ...Array<number>(5).fill(0.9), ...Array<number>(9).fill(0)]),
    );
    expect(early.events.filter((e) => e.kind === 'collapse')).toEqual([]);
    expect(early.collapseZ).toBe(Number.NEGATIVE_INFINITY);
  });

  it('tells convergence at high success from collapse, dips near 1 included', () => {
    const rows: MetricRow[] = Array.from({ length: 50 }, (_, i) => ({
      iteration: i,
      'rollout/successRate': i < 15 ? 0.3 + (0.69 * i) / 15 : i >= 30 && i < 35 ? 0.93 : 0.99,
      'rollout/inGroupRewardStd': i < 15 ? 0.45 * (1 - i / 15) + 0.001 : 0.001,
    }));
    const d = run(rows);
    const s = d.summary();
    expect(s.echoTrap).toBe(false);
    expect(s.converged).toBe(true);
    expect(d.events.find((e) => e.signal === 'rewardStdDrop')?.kind).toBe('convergence');
  });

  it('makes MI rules ready after 2 measurements, not after the 5-iteration warm-up', () => {
    // MI every 10 iterations: 1.0, 1.0, then 0.1 at the third measurement (iteration 20).
    const rows: MetricRow[] = Array.from({ length: 21 }, (_, i) => ({
      iteration: i,
      ...(i % 10 === 0 ? { 'reasoning/mi': i < 20 ? 1 : 0.01 } : {}),
    }));
    const d = run(rows);
    expect(d.events.find((e) => e.signal === 'thinkMiDrop')?.iteration).toBe(20);
  });
});

describe('the summary of a short run', () => {
  it('has no start before the warm-up is complete (a stopped run exports as valid JSON)', () => {
    const s = run(successRows([0.2, 0.3])).summary();
    expect('startSuccess' in s).toBe(false);
    expect(JSON.parse(JSON.stringify(s)).startSuccess).toBeUndefined();
    expect(run(successRows([0.2, 0.3, 0.2, 0.3, 0.2])).summary().startSuccess).toBeCloseTo(0.24, 12);
  });
});
