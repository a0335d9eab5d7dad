// The detector's calibration on hand-made stored runs: overdispersion worked out by hand, a flat
// frozen run not flagged, a labelled rise and fall recalled with its lead, nulls resampled from
// a constant pool never flagged, and the report's section replaced or inserted in place.
import { describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../../core/config.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import {
  type CalRun,
  calibrate,
  calibrationMarkdown,
  dispersionOf,
  resampledNullRate,
  spliceSection,
  startDriftOf,
} from './calibrate.js';

const config: Config = { ...defaultConfig(), groups: 4, groupSize: 8, iterations: 30 };

function run(
  name: string,
  success: readonly number[],
  extra: (i: number) => Partial<MetricRow> = () => ({}),
): CalRun {
  const rows = success.map((x, i) => ({ iteration: i, 'rollout/successRate': x, ...extra(i) }));
  return { name, dir: name, config, rows, stored: { echoTrap: true, collapseIteration: 3, firstFired: {} } };
}

describe('calibration', () => {
  it('measures overdispersion against the binomial by hand', () => {
    // 0.25, 0.75 alternating: mean 0.5, sample variance 4 · 0.0625 / 3 = 0.083333; the binomial
    // variance of 32 rollouts at 0.5 is 0.25 / 32 = 0.0078125; the ratio is 10.6667.
    const d = dispersionOf([run('a', [0.25, 0.75, 0.25, 0.75])]);
    expect(d.pooledSuccess).toBeCloseTo(0.5, 10);
    expect(d.perRun[0]).toBeCloseTo(0.083333333 / 0.0078125, 5);
    expect(d.pooled).toBeCloseTo(d.perRun[0]!, 10);
  });

  it('measures the start drift by hand', () => {
    // Warm-up 2: run a (0.4, 0.2 | 0.3, 0.3) → +0.0; run b (0.5, 0.3 | 0.2, 0.2) → +0.2:
    // mean 0.1, standard error sqrt(var(0, 0.2) / 2) = sqrt(0.02 / 2) = 0.1.
    const d = startDriftOf([run('a', [0.4, 0.2, 0.3, 0.3]), run('b', [0.5, 0.3, 0.2, 0.2])], 2);
    expect(d.mean).toBeCloseTo(0.1, 10);
    expect(d.se).toBeCloseTo(0.1, 10);
  });

  it('never flags nulls resampled from a constant pool', () => {
    expect(resampledNullRate([0.25, 0.25], 30, 20, { rollouts: 32 })).toBe(0);
  });

  it('counts false positives, signal rates and recall with lead time', () => {
    const flat = [0.25, 0.19, 0.31, 0.22, 0.28, 0.25, 0.22, 0.28, 0.25, 0.31, 0.19, 0.25, 0.28, 0.22, 0.25];
    const frozen = [run('seed-1', [...flat, ...flat]), run('seed-2', [...flat].reverse().concat(flat))];
    // Start 0.25, 0.55 for 5–14, 0.15 after, with a malformed rise from 12. Binomial fallback
    // (no between-group spread in these rows): the trailing 10 points ending at t hold 24 − t of
    // 0.55, a mean at or below the start 0.25 first at t = 22 (0.23); the rise 0.30 is
    // 0.30 / hypot(0.03423, 0.03933) = 5.75 SE, the fall 0.32 / hypot(0.03933, 0.02353) = 6.98.
    const rise = Array.from({ length: 30 }, (_, i) => (i < 5 ? 0.25 : i < 15 ? 0.55 : 0.15));
    const trap = run('trap', rise, (i) => ({ 'rollout/malformedRate': i < 12 ? 0.05 : 0.6 }));
    const c = calibrate({
      frozen,
      labelled: [{ run: trap, label: { run: 'trap', label: 'rise-and-fall', why: 'by hand' } }],
      draws: 20,
      commits: ['0123456789abcdef'],
    });
    expect(c.falsePositives).toBe(0);
    expect(c.storedFalsePositives).toBe(2);
    expect(c.recall).toEqual({ flagged: 1, of: 1 });
    expect(c.collapses[0]?.collapseIteration).toBe(22);
    // The malformed rule fires when its EMA (weight 0.6) reaches max(0.25, start 0.05 + 0.2): at
    // iteration 12 it is 0.6 · 0.05 + 0.4 · 0.6 = 0.27 (debiasing changes it by < 1e-3): 10 ahead.
    expect(c.leads).toEqual([10]);
    const malformed = c.signals.find((s) => s.signal === 'malformedRise');
    expect(malformed).toMatchObject({ frozenFired: 0, beforeCollapse: 1, meanLead: 10 });
    const md = calibrationMarkdown(c, '### Notes\n\nby hand');
    expect(md).toMatch(/^## Frozen control and detector calibration\n/);
    expect(md).toMatch(/\*\*False positives: 0 of 2\*\*/);
    expect(md).toMatch(/\*\*Recall: 1 of 1\*\*/);
    expect(md).toMatch(/`0123456`/);
    expect(md.trimEnd().endsWith('by hand')).toBe(true);
  });

  it('replaces the section in place, or inserts it before the wall-time table', () => {
    const section = '## Frozen control and detector calibration\n\nnew\n\n';
    const doc = '# R\n\n## A\n\na\n\n## Wall time\n\nw\n';
    const inserted = spliceSection(doc, section);
    expect(inserted).toBe(
      '# R\n\n## A\n\na\n\n## Frozen control and detector calibration\n\nnew\n\n## Wall time\n\nw\n',
    );
    const again = spliceSection(inserted.replace('new', 'old'), section);
    expect(again).toBe(inserted);
    expect(spliceSection('# R\n', section)).toBe(`# R\n\n${section}`);
  });
});
