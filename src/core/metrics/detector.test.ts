// The echo-trap detector on hand-made series: the noise bound by hand, a frozen policy's noisy
// but flat success (not a trap), a clear rise and fall (a trap, at the iteration computed by
// hand), a peak inside the warm-up (no verdict), convergence at high success (not a trap).
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
    expect(collapse?.message).toMatch(/success collapsed/);
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

  it('reports recovery after a collapse: a rise from the low beyond the noise, past half-way back', () => {
    const rows: MetricRow[] = Array.from({ length: 90 }, (_, i) => ({
      iteration: i,
      'rollout/successRate': i < 5 ? 0.2 : i < 20 ? 0.6 : i < 40 ? 0.05 : 0.6,
    }));
    const s = run(rows).summary();
    expect(s.echoTrap).toBe(true);
    expect(s.recovered).toBe(true);
  });
});

/** Rows with only the training success rate, one per value. */
const successRows = (xs: readonly number[]): MetricRow[] =>
  xs.map((x, i) => ({ iteration: i, 'rollout/successRate': x }));

describe('the collapse rule and its noise bound', () => {
  it('computes the binomial bound by hand for P × N = 4 × 8 rollouts and 5-iteration windows', () => {
    expect(detectorOptionsFor(defaultConfig() /* 8 × 16 */).rollouts).toBe(128);
    const cfg = { ...defaultConfig(), groups: 4, groupSize: 8 };
    expect(detectorOptionsFor(cfg).rollouts).toBe(32);
    // Oversampling at ratio 0.25 rolls out ⌈4 / 0.25⌉ = 16 groups of 8.
    expect(detectorOptionsFor({ ...cfg, filterMode: 'oversample', filterRatio: 0.25 }).rollouts).toBe(128);
    // One batch at p = 0.25: sqrt(0.25 · 0.75 / 32) = sqrt(0.005859375) = 0.0765466.
    expect(binomialStdError(0.25, 32)).toBeCloseTo(0.0765466, 6);
    // Two windows of 5 × 32 = 160 rollouts at 0.25 and 0.55: pooled p = 0.4,
    // 3 · sqrt(0.4 · 0.6 · (1/160 + 1/160)) = 3 · sqrt(0.003) = 0.1643168.
    expect(noiseBound(0.25, 160, 0.55, 160, 3)).toBeCloseTo(0.1643168, 6);
    // Unequal counts: 0.2 over 160, 0.3 over 320: pooled (32 + 96) / 480 = 0.26667,
    // sqrt(0.26667 · 0.73333 · (1/160 + 1/320)) = sqrt(0.00183333) = 0.0428174; dispersion 2 → × √2.
    expect(noiseBound(0.2, 160, 0.3, 320, 1)).toBeCloseTo(0.0428174, 6);
    expect(noiseBound(0.2, 160, 0.3, 320, 1, 2)).toBeCloseTo(0.0428174 * Math.SQRT2, 6);
    expect(DEFAULT_DETECTOR).toMatchObject({ window: 5, warmup: 5, rollouts: 32 });
  });

  it('flags a clear rise and fall at the iteration worked out by hand', () => {
    // Start 0.25 (iterations 0–4), 0.55 for 5–14, 0.15 from 15. The peak window (5–9) is 0.55;
    // the rise 0.30 against 3 · sqrt(0.4 · 0.6 · 2/160) = 0.164 is beyond the noise. The window
    // to 16 is (3 · 0.55 + 2 · 0.15)/5 = 0.39 (half-way back: ≤ 0.40), a fall of 0.16 against
    // 3 · sqrt(0.47 · 0.53 · 2/160) = 0.167: not yet; the window to 17 is 0.31, a fall of 0.24
    // against 3 · sqrt(0.43 · 0.57 · 2/160) = 0.166: the collapse, at iteration 17.
    const xs = Array.from({ length: 30 }, (_, i) => (i < 5 ? 0.25 : i < 15 ? 0.55 : 0.15));
    const d = detectRun({ ...defaultConfig(), groups: 4, groupSize: 8 }, successRows(xs));
    const s = d.summary();
    expect(s.echoTrap).toBe(true);
    expect(s.collapseIteration).toBe(17);
    expect(s.peakSuccess).toBeCloseTo(0.55, 10);
    expect(d.startSuccess).toBeCloseTo(0.25, 10);
    // The largest z at which it fires: the fall at the end, 0.40 over sqrt(0.35 · 0.65 · 2/160),
    // is 7.50 standard errors, but the rise (0.30 / sqrt(0.003) = 5.477) is the smaller.
    expect(d.collapseZ).toBeCloseTo(0.3 / Math.sqrt(0.003), 6);
    const collapse = d.events.find((e) => e.kind === 'collapse');
    expect(collapse?.message).toMatch(/risen from 25% at the start/);
  });

  it('does not flag a flat, noisy series at the frozen base rate', () => {
    // Hand-made: the DoorKey base's ~0.25 with batch-sized wobbles (±0.09, about one binomial
    // standard error of 32 rollouts), including a 5-iteration bump to 0.34 and a dip after it.
    const xs = [
      0.31, 0.19, 0.22, 0.28, 0.25, 0.22, 0.34, 0.16, 0.25, 0.28, 0.34, 0.34, 0.34, 0.34, 0.34, 0.19, 0.16,
      0.22, 0.16, 0.19, 0.25, 0.28, 0.31, 0.22, 0.25, 0.19, 0.28, 0.22, 0.25, 0.31,
    ];
    const d = run(successRows(xs));
    expect(d.summary().echoTrap).toBe(false);
    expect(d.events.filter((e) => e.kind === 'collapse')).toEqual([]);
    // Start (0.31 + 0.19 + 0.22 + 0.28 + 0.25)/5 = 0.25; the peak window (10–14) 0.34: a rise of
    // 0.09, which is 0.09 / sqrt(0.295 · 0.705 · 2/160) = 1.75 standard errors — under 3.
    expect(d.startSuccess).toBeCloseTo(0.25, 10);
    expect(d.collapseZ).toBeLessThan(2);
    // And binomial noise itself: 32 Bernoulli(0.25) rollouts per iteration, seeded.
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const rng = new Rng(seed);
      const noise = Array.from({ length: 30 }, () => {
        let k = 0;
        for (let j = 0; j < 32; j++) k += rng.float() < 0.25 ? 1 : 0;
        return k / 32;
      });
      expect(run(successRows(noise)).summary().echoTrap).toBe(false);
    }
  });

  it('gives no verdict from a peak inside the warm-up (Bandit: best at iteration 0)', () => {
    // Bandit's starpo-grpo seed 1: 0.48 at iteration 0, then down. The old rule fired at 1.
    const xs = [0.48, 0.03, 0.19, 0.16, 0.09, 0.27, 0.17, 0.14, 0.12, 0.06, 0.09, 0.02, 0.05, 0.14, 0.03];
    const d = run(successRows([...xs, ...Array<number>(25).fill(0)]));
    expect(d.summary().echoTrap).toBe(false);
    expect(d.events.filter((e) => e.kind === 'collapse' || e.kind === 'recovery')).toEqual([]);
    // Nothing can fire before a window wholly after the warm-up exists (iterations 5–9).
    const early = run(successRows([0.1, 0.1, 0.9, 0.9, 0.9, 0.9, 0.9, 0, 0]));
    expect(early.events.filter((e) => e.kind === 'collapse')).toEqual([]);
    expect(early.collapseZ).toBe(Number.NEGATIVE_INFINITY);
  });

  it('tells convergence at high success from collapse, dips near 1 included', () => {
    // 0.3 → 0.99 by iteration 15, then 0.99 with a 5-iteration dip to 0.93: near 1 the binomial
    // noise is small, so the dip is "beyond noise", but it gives back far less than half the rise.
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
});
