// Chart logic: debiased EMA against hand-computed values, LTTB bounds and spike keeping, CSV
// quoting and alignment, and the merged chart data.
import { describe, expect, it } from 'vitest';
import { metricByKey } from '../../core/metrics/keys.js';
import { buildChartData, paddedDomain } from './chartData.js';
import { CHARTS, type ChartSpec } from './chartSpecs.js';
import { csvCell, seriesToCsv } from './csv.js';
import { lttbIndices } from './downsample.js';
import { Pacer } from './pacing.js';
import { debiasedEma } from './smoothing.js';

describe('debiasedEma', () => {
  it('matches hand-computed values and is not pulled to zero at the start', () => {
    // w = 0.5: ema1 = 0.5·2 = 1, weight 0.5 → 2; ema2 = 0.5·1 + 0.5·4 = 2.5, weight 0.75 → 3.333…
    const s = debiasedEma([2, 4, 6], 0.5);
    expect(s[0]).toBeCloseTo(2, 12);
    expect(s[1]).toBeCloseTo(10 / 3, 12);
    // ema3 = 0.5·2.5 + 0.5·6 = 4.25, weight 0.875 → 4.857…
    expect(s[2]).toBeCloseTo(4.25 / 0.875, 12);
  });
  it('is the identity at weight 0 and skips missing values', () => {
    expect(debiasedEma([1, 5, 3], 0)).toEqual([1, 5, 3]);
    const s = debiasedEma([2, undefined, Number.NaN, 4], 0.5);
    expect(s[1]).toBeNaN();
    expect(s[2]).toBeNaN();
    expect(s[3]).toBeCloseTo(10 / 3, 12);
  });
  it('rejects a weight of 1', () => {
    expect(() => debiasedEma([1], 1)).toThrow(/\[0, 1\)/);
  });
});

describe('lttbIndices', () => {
  it('keeps short series whole and bounds long ones', () => {
    expect(lttbIndices([0, 1, 2], [1, 2, 3], 10)).toEqual([0, 1, 2]);
    const n = 10_000;
    const xs = Array.from({ length: n }, (_, i) => i);
    const ys = xs.map((x) => Math.sin(x / 50));
    ys[4321] = 100; // a gradient-norm spike
    const idx = lttbIndices(xs, ys, 500);
    expect(idx.length).toBe(500);
    expect(idx[0]).toBe(0);
    expect(idx[idx.length - 1]).toBe(n - 1);
    expect(idx).toContain(4321);
    for (let i = 1; i < idx.length; i++) expect(idx[i]).toBeGreaterThan(idx[i - 1] as number);
  });
});

describe('csv', () => {
  it('quotes cells that need it and aligns series by iteration', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(Number.NaN)).toBe('');
    const text = seriesToCsv([
      {
        name: 'success · run 1',
        points: [
          { iteration: 0, value: 0.5 },
          { iteration: 2, value: 1 },
        ],
      },
      { name: 'success, run 2', points: [{ iteration: 1, value: 0.25 }] },
    ]);
    expect(text).toBe('iteration,success · run 1,"success, run 2"\n0,0.5,\n1,,0.25\n2,1,\n');
  });
});

describe('buildChartData', () => {
  it('merges runs by iteration, smooths, thins and skips non-positive values on log axes', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      iteration: i,
      'actor/gradNorm': i % 10 === 0 ? 0 : i,
    }));
    const other = [{ iteration: 5, 'actor/gradNorm': 3 }];
    const d = buildChartData(
      [
        { name: 'now', color: '#000', rows },
        { name: 'old', color: '#f00', rows: other },
      ],
      [{ key: 'actor/gradNorm', label: 'Gradient norm' }],
      { smoothing: 0, maxPoints: 100, log: true },
    );
    expect(d.points).toBe(900);
    expect(d.data.length).toBeLessThanOrEqual(101);
    expect(d.data.every((r) => r.r0k0raw === undefined || r.r0k0raw > 0)).toBe(true);
    expect(d.data.find((r) => r.iteration === 5)?.r1k0s).toBe(3);
    expect(d.lines.map((l) => l.dataKey)).toEqual(['r0k0raw', 'r0k0s', 'r1k0raw', 'r1k0s']);
    expect(d.last.r0k0s).toBe(999);
  });
});

describe('paddedDomain', () => {
  it('widens a flat series and leaves a varying one to the chart', () => {
    expect(paddedDomain([-0.2, -0.2 + 1e-12])).toEqual([-0.30000000000000004, -0.1 + 1e-12]);
    expect(paddedDomain([0, 0])).toEqual([-1, 1]);
    expect(paddedDomain([2, 2], true)).toEqual([1, 4]);
    expect(paddedDomain([0, 1])).toBeNull();
    expect(paddedDomain(null)).toBeNull();
  });
});

describe('chart specs', () => {
  it('take their log scale from the metric table: KL and gradient norm, nothing else', () => {
    expect(CHARTS.filter((c) => c.log).map((c) => c.id)).toEqual(['kl', 'grad-norm', 'grad-split']);
  });

  it('name metric keys that exist (a misspelt key does not compile)', () => {
    const spec: ChartSpec = {
      id: 'typo',
      title: 'typo',
      // @ts-expect-error 'actor/gradnorm' is not a metric key
      keys: ['actor/gradnorm'],
      log: false,
    };
    expect(metricByKey.has(spec.keys[0] as string)).toBe(false);
    for (const c of CHARTS) for (const k of c.keys) expect(metricByKey.has(k), k).toBe(true);
  });
});

describe('Pacer', () => {
  it('shows the first value at once, then waits out the gap while live', () => {
    const p = new Pacer(1000);
    expect(p.wait(0, true)).toBe(0);
    p.shown(0);
    expect(p.wait(300, true)).toBe(700);
    expect(p.wait(1200, true)).toBe(0);
  });
  it('widens the gap to 4× the last redraw, and never waits when the run is not live', () => {
    const p = new Pacer(1000);
    p.shown(0);
    p.drawn(600);
    expect(p.gap).toBe(2400);
    expect(p.wait(1000, true)).toBe(1400);
    expect(p.wait(1000, false)).toBe(0);
    p.drawn(50);
    expect(p.gap).toBe(1000);
  });

  it('marks series measured every few iterations (or once) as sparse, to be drawn with dots', () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({
      iteration: i,
      'rollout/successRate': 0.2,
      ...(i === 0 ? { 'reasoning/mi': 1.1 } : {}),
      ...(i % 5 === 0 ? { 'eval/successRate': 0.5 } : {}),
    }));
    const d = buildChartData(
      [{ name: 'now', color: '#000', rows }],
      [
        { key: 'rollout/successRate', label: 'Success' },
        { key: 'reasoning/mi', label: 'MI' },
        { key: 'eval/successRate', label: 'Held-out' },
      ],
      { smoothing: 0, maxPoints: 100 },
    );
    expect(d.lines.filter((l) => !l.raw).map((l) => l.sparse)).toEqual([false, true, true]);
  });
});

describe('markerOf', () => {
  it('shows a context signal on the chart of its own metric only, a warning everywhere', async () => {
    const { markerOf } = await import('./MetricChart.js');
    const context = {
      type: 'echo' as const,
      iteration: 7,
      kind: 'context' as const,
      signal: 'actionMiDrop',
      metric: 'reasoning/actionMi',
      message: 'the first action now depends much less on the start state',
      value: 0.1,
      reference: 0.8,
    };
    expect(markerOf(context, ['reasoning/mi', 'reasoning/actionMi'])).toMatchObject({
      x: 7,
      kind: 'context',
    });
    expect(markerOf(context, ['rollout/successRate'])).toBeNull();
    const warning = { ...context, kind: 'warning' as const, metric: 'rollout/malformedRate' };
    expect(markerOf(warning, ['rollout/successRate'])).toMatchObject({ x: 7, kind: 'warning' });
  });
});
