// From metric rows to what a chart draws: for each run (current and overlays) and each metric
// of the chart, the raw series and its debiased-EMA smoothing, thinned by LTTB to a bounded
// number of points and merged into one row per iteration (recharts' data shape).
import type { MetricRow } from '../../core/metrics/keys.js';
import { lttbIndices } from './downsample.js';
import { debiasedEma } from './smoothing.js';

/** One run's series as the chart receives it. */
export interface ChartRun {
  name: string;
  color: string;
  rows: readonly MetricRow[];
}

/** One drawn line. `dataKey` is safe for recharts (no dots). */
export interface ChartLine {
  dataKey: string;
  name: string;
  color: string;
  /** Dash pattern distinguishing the chart's metrics. */
  dash?: string;
  raw: boolean;
  /**
   * Measured on fewer than half the run's iterations, or at one point only (MI, held-out
   * evaluation): drawn with a dot at each point, so a single measurement is visible.
   */
  sparse: boolean;
}

export interface ChartData {
  data: Record<string, number>[];
  lines: ChartLine[];
  /** Points of the first run's first metric before thinning. */
  points: number;
  /** The last smoothed value per (run, metric) line, for the legend. */
  last: Record<string, number>;
  /** Smallest and largest value drawn (raw or smoothed); null when there is none. */
  range: [number, number] | null;
}

/**
 * A y domain that never collapses: a flat series (e.g. every return −0.2, up to float noise)
 * gets a band around its value instead of ticks that all print the same number.
 */
export function paddedDomain(range: [number, number] | null, log = false): [number, number] | null {
  if (!range) return null;
  const [lo, hi] = range;
  const span = hi - lo;
  const scale = Math.max(Math.abs(lo), Math.abs(hi));
  if (span > 1e-6 * Math.max(1, scale)) return null;
  if (log) return [lo / 2, hi * 2];
  const pad = scale > 0 ? scale * 0.5 : 1;
  return [lo - pad, hi + pad];
}

const DASHES = [undefined, '6 3', '2 3', '8 3 2 3'];

/** The finite (and, on a log axis, positive) points of one metric. */
export function seriesOf(
  rows: readonly MetricRow[],
  key: string,
  log = false,
): { xs: number[]; ys: number[] } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const row of rows) {
    const v = (row as Record<string, number | undefined>)[key];
    if (v === undefined || !Number.isFinite(v) || (log && v <= 0)) continue;
    xs.push(row.iteration);
    ys.push(v);
  }
  return { xs, ys };
}

/** Builds the merged, thinned data of one chart. */
export function buildChartData(
  runs: readonly ChartRun[],
  keys: readonly { key: string; label: string }[],
  options: { smoothing: number; maxPoints: number; log?: boolean },
): ChartData {
  const byX = new Map<number, Record<string, number>>();
  const lines: ChartLine[] = [];
  const last: Record<string, number> = {};
  let points = 0;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  runs.forEach((run, ri) => {
    keys.forEach((k, ki) => {
      const { xs, ys } = seriesOf(run.rows, k.key, options.log);
      if (ri === 0 && ki === 0) points = xs.length;
      const smooth = debiasedEma(ys, options.smoothing);
      const id = `r${ri}k${ki}`;
      const name = runs.length > 1 ? `${k.label} · ${run.name}` : k.label;
      const dash = DASHES[ki % DASHES.length];
      const sparse = xs.length < 2 || xs.length < run.rows.length / 2;
      lines.push({
        dataKey: `${id}raw`,
        name,
        color: run.color,
        ...(dash ? { dash } : {}),
        raw: true,
        sparse,
      });
      lines.push({
        dataKey: `${id}s`,
        name,
        color: run.color,
        ...(dash ? { dash } : {}),
        raw: false,
        sparse,
      });
      if (smooth.length > 0) last[`${id}s`] = smooth[smooth.length - 1] as number;
      for (const i of lttbIndices(xs, ys, options.maxPoints)) {
        const x = xs[i] as number;
        let row = byX.get(x);
        if (!row) {
          row = { iteration: x };
          byX.set(x, row);
        }
        row[`${id}raw`] = ys[i] as number;
        row[`${id}s`] = smooth[i] as number;
        lo = Math.min(lo, ys[i] as number, smooth[i] as number);
        hi = Math.max(hi, ys[i] as number, smooth[i] as number);
      }
    });
  });
  const data = [...byX.values()].sort((a, b) => (a.iteration as number) - (b.iteration as number));
  return { data, lines, points, last, range: data.length > 0 ? [lo, hi] : null };
}
