// The round report on hand-made runs: a trapped run's verdict and mode, a frozen run's, the
// pre-registered confirmation threshold at its edges, and the tables' cells.
import { describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../../core/config.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { CalRun } from './calibrate.js';
import { cellSummary, collapseMode, judgeRun, runTable } from './round.js';
import { confirmed } from './roundDocs.js';

const config: Config = { ...defaultConfig(), groups: 8, groupSize: 4, iterations: 40 };

/** A run: paired success by iteration, spread 0.2, and the other signals from `extra`. */
function run(
  seed: number,
  success: (i: number) => number,
  extra: (i: number) => Partial<MetricRow> = () => ({}),
): CalRun {
  const rows: MetricRow[] = Array.from({ length: 40 }, (_, i) => ({
    iteration: i,
    'rollout/pairedSuccessRate': success(i),
    'rollout/groupSuccessStd': 0.2,
    'rollout/malformedRate': 0.05,
    'reasoning/actionMi': 0.8,
    'reasoning/modalThinkShare': 0.2,
    ...(i % 10 === 0 ? { 'eval/successRate': 0.5, 'reasoning/mi': 1.2 } : {}),
    ...extra(i),
  }));
  return { name: `seed-${seed}`, dir: '.', config: { ...config, seed }, rows };
}

const riseAndFall = (i: number) => (i < 5 ? 0.25 : i < 25 ? 0.55 : 0.15);

describe('round report', () => {
  it('judges a rise and a fall to the start as trapped, with its mode', () => {
    const r = judgeRun(
      'cell',
      run(1, riseAndFall, (i) => ({ 'rollout/malformedRate': i < 25 ? 0.05 : 0.7 })),
    );
    expect(r.trapped).toBe(true);
    expect(r.collapseIteration).toBe(32);
    expect(r.start).toBeCloseTo(0.25, 10);
    expect(r.final).toBeCloseTo(0.15, 10);
    expect(r.signals.malformed[0]).toBeCloseTo(0.05, 12);
    expect(r.signals.malformed[1]).toBeCloseTo(0.7, 12);
    expect(r.mode).toBe('format break');
    expect(runTable([r])).toMatch(
      /\| 1 \| 0\.25 \| 0\.55 \(\d+\) \| 0\.15 \| .* \| \*\*yes\*\* \(32\) \|.*format break \|/,
    );
  });

  it('names the mode from the last 10 iterations against the first 5', () => {
    const base = {
      malformed: [0.05, 0.1],
      actionMi: [0.8, 0.7],
      modalThink: [0.2, 0.25],
      entropy: [1, 1],
      distinct2: [0.1, 0.1],
      thinkMi: [1, 1],
    } as const;
    const m = (o: object) => collapseMode({ ...base, ...o } as Parameters<typeof collapseMode>[0]);
    expect(m({})).toBe('none of the three');
    expect(m({ actionMi: [0.8, 0.2] })).toBe('one action whatever the input');
    expect(m({ modalThink: [0.2, 0.6] })).toBe('templated thinking');
    expect(m({ modalThink: [0.4, 0.6] })).toBe('none of the three');
  });

  it('holds the confirmation to ≥ 6 of 8 trapped against ≤ 1 of 8 frozen', () => {
    const trapped = (s: number) => judgeRun('v', run(s, riseAndFall));
    const flat = (s: number) =>
      judgeRun(
        'f',
        run(s, () => 0.25),
      );
    const v = (k: number) => Array.from({ length: 8 }, (_, i) => (i < k ? trapped(i) : flat(i)));
    expect(confirmed(v(6), v(0))).toBe(true);
    expect(confirmed(v(5), v(0))).toBe(false);
    expect(confirmed(v(8), v(2))).toBe(false);
    expect(confirmed(v(6).slice(0, 7), v(0))).toBe(false);
    const c = cellSummary('v', v(6));
    expect([c.trapped, c.runs]).toEqual([6, 8]);
    expect(c.interval[0]).toBeCloseTo(0.40927, 4);
  });
});

describe('spliceBetween', () => {
  it('replaces the round section and keeps the study section after it', async () => {
    const { spliceBetween } = await import('./roundDocs.js');
    const doc = '# D\n\npre\n\n<R>\nold\n\n<S>\nstudy\n';
    expect(spliceBetween(doc, '<R>', '<S>', '<R>\nnew')).toBe('# D\n\npre\n\n<R>\nnew\n\n<S>\nstudy\n');
    expect(spliceBetween('# D\n', '<R>', '<S>', '<R>\nnew')).toBe('# D\n\n<R>\nnew\n');
    expect(spliceBetween('# D\n\n<S>\ns\n', '<R>', '<S>', '<R>\nnew')).toBe('# D\n\n<R>\nnew\n\n<S>\ns\n');
  });

  it("takes the study's vanilla and frozen arms from the confirmation's seeds and the later ones", async () => {
    const { studySection } = await import('./roundDocs.js');
    const seeds = (from: number, to: number, f: (i: number) => number) =>
      Array.from({ length: to - from + 1 }, (_, k) => run(from + k, f));
    const flat = () => 0.25;
    const eight = new Map<string, CalRun[]>([
      ['confirm-vanilla', seeds(201, 208, riseAndFall)],
      ['confirm-frozen', seeds(201, 208, flat)],
      ['study-s-steps', seeds(201, 208, flat)],
    ]);
    const before = studySection(eight);
    expect(before).toContain('(seeds 201–208 so far)');
    expect(before).toContain("8 seeds are below the study's planned 12");
    expect(before).toMatch(/\| vanilla \| 8 of 8 /);
    const twelve = new Map([
      ...eight,
      ['study-vanilla', seeds(209, 212, riseAndFall)],
      ['study-frozen', seeds(209, 212, flat)],
      ['study-s-steps', seeds(201, 212, flat)],
    ]);
    const after = studySection(twelve);
    expect(after).toContain('## 9. The study of the arms, at the chosen cell (seeds 201–212)');
    expect(after).not.toContain('below the study');
    expect(after).toMatch(/\| vanilla \| 12 of 12 /);
    expect(after).toMatch(/\| frozen \| 0 of 12 /);
  });
});
