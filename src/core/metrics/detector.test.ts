import { describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import { EchoTrapDetector } from './detector.js';
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

  it('reports recovery after a collapse', () => {
    const rows: MetricRow[] = Array.from({ length: 90 }, (_, i) => ({
      iteration: i,
      'rollout/successRate': i < 20 ? 0.6 : i < 40 ? 0.05 : 0.6,
    }));
    const s = run(rows).summary();
    expect(s.echoTrap).toBe(true);
    expect(s.recovered).toBe(true);
  });

  it('ignores a peak below 0.2', () => {
    const rows: MetricRow[] = Array.from({ length: 40 }, (_, i) => ({
      iteration: i,
      'rollout/successRate': i < 20 ? 0.15 : 0,
    }));
    expect(run(rows).summary().echoTrap).toBe(false);
  });
});
