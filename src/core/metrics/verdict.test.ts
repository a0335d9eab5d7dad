// The four verdicts on hand-made series with a constant between-group spread (std 0.2 over 4
// groups), so every standard error is worked out by hand: a 5-point window's SE is
// sqrt(0.04 / (5 · 4)) = 0.0447, a 10-point window's sqrt(0.04 / (10 · 4)) = 0.0316.
import { describe, expect, it } from 'vitest';
import { verdictOfRows } from './detector.js';
import type { MetricRow } from './keys.js';
import { verdictText } from './verdict.js';

const config = { groups: 4, groupSize: 8 };

/** Rows whose paired success follows `values`, with the group spread fixed at 0.2. */
function rows(values: readonly number[]): MetricRow[] {
  return values.map((v, i) => ({
    iteration: i,
    'rollout/pairedSuccessRate': v,
    'rollout/groupSuccessStd': 0.2,
  }));
}

const seq = (...parts: [number, number][]) => parts.flatMap(([v, n]) => Array<number>(n).fill(v));
const se5 = Math.sqrt(0.04 / 20);
const se10 = Math.sqrt(0.04 / 40);

describe('verdictOf', () => {
  it('trapped: a rise of 0.4 and a fall of 0.5, both beyond 3 SE, ending below the start', () => {
    const v = verdictOfRows(config, rows(seq([0.2, 5], [0.6, 15], [0.1, 10])));
    expect(v.verdict).toBe('trapped');
    expect(v.start).toBeCloseTo(0.2, 10);
    expect(v.peak).toBeCloseTo(0.6, 10);
    expect(v.last).toBeCloseTo(0.1, 10);
    expect(v.seStart).toBeCloseTo(se5, 10);
    expect(v.sePeak).toBeCloseTo(se5, 10);
    expect(v.seLast).toBeCloseTo(se10, 10);
    expect(v.riseZ).toBeCloseTo(0.4 / Math.hypot(se5, se5), 6); // 6.32
    expect(v.fallZ).toBeCloseTo(0.5 / Math.hypot(se5, se10), 6); // 9.13
    expect(verdictText(v)).toMatch(
      /^Trapped: success rose from 20% to 60%, then fell to 10% \(back to its start at iteration \d+\)\. Start 0\.20 ± 0\.04, peak 0\.60 ± 0\.04 \(iteration \d+\), last 10 0\.10 ± 0\.03/,
    );
    expect(verdictText(v)).toMatch(
      /The rule: a rise and a fall each beyond 3 standard errors, and the last 10 at or below the start\.$/,
    );
  });

  it('collapsed: no rise, and the last 10 are 0.2 below the start (3 SE is 0.164)', () => {
    const v = verdictOfRows(config, rows(seq([0.3, 20], [0.1, 10])));
    expect(v.verdict).toBe('collapsed');
    expect(v.riseZ).toBeCloseTo(0, 10);
    expect(verdictText(v)).toMatch(
      /^Collapsed without a rise: success fell from 30% to 10% without rising first\. .* Not met: its rise \(0\.0\) is not beyond 3\.$/,
    );
  });

  it('held: 0.15 below the start is within 3 SE (0.164)', () => {
    expect(3 * Math.hypot(se5, se10)).toBeCloseTo(0.1643, 4);
    const v = verdictOfRows(config, rows(seq([0.3, 20], [0.15, 10])));
    expect(v.verdict).toBe('held');
    expect(verdictText(v)).toMatch(
      /^Held, but it did not learn: success went from 30% to 15%, no clear rise and no clear fall\. Start/,
    );
    expect(verdictText(v)).toMatch(
      /Not met: its rise \(0\.0\) is not beyond 3; its fall \(2\.7\) is not beyond 3\.$/,
    );
  });

  it('held after a rise: up 0.4, then 0.1 down from the peak, still above the start', () => {
    const v = verdictOfRows(config, rows(seq([0.2, 5], [0.6, 15], [0.5, 10])));
    expect(v.verdict).toBe('held');
    // The fall from the peak (0.1) is within 3 SE (0.164): it rose and stayed up.
    expect(verdictText(v)).toMatch(
      /^Held: it rose and stayed up — success rose from 20% to 60% and ended at 50%\. Start/,
    );
    expect(verdictText(v)).toMatch(
      /Not met: its fall \(1\.8\) is not beyond 3; its last 10 \(0\.50\) ended above its start \(0\.20\)\.$/,
    );
    // Up 0.4 and back 0.3 (beyond the noise), still above the start: only the end is missing.
    const partWay = verdictOfRows(config, rows(seq([0.2, 5], [0.6, 15], [0.3, 10])));
    expect(verdictText(partWay)).toMatch(
      /^Held: it rose and fell back part of the way — success rose from 20% to 60% and ended at 30%, still above its start\./,
    );
    expect(verdictText(partWay)).toMatch(/Not met: its last 10 \(0\.30\) ended above its start \(0\.20\)\.$/);
    // Flat: neither a rise nor an end lower than the start.
    const flat = verdictOfRows(config, rows(seq([0.3, 30])));
    expect(verdictText(flat)).toMatch(
      /^Held: success stayed near 30% \(30% at the end\), no clear rise and no clear fall\. Start/,
    );
  });

  it('too short: the rule reads 5 + 5 + 10 = 20 iterations', () => {
    const short = verdictOfRows(config, rows(seq([0.2, 5], [0.6, 5], [0.0, 9])));
    expect(short).toMatchObject({ verdict: 'too-short', iterations: 19, minIterations: 20 });
    expect(verdictText(short)).toBe(
      'Too short to judge: the rule reads at least 20 iterations and this run has 19.',
    );
    expect(verdictOfRows(config, rows(seq([0.2, 5], [0.6, 5], [0.0, 10]))).verdict).toBe('trapped');
  });
});
