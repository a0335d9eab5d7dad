// The echo-trap study's reference bands on a chart: which bands a chart draws (for the run's
// env, the first of the chart's metrics the study measured, one band per algorithm family) and
// how they join the chart's rows (recharts reads a [lo, hi] pair as a ranged area), over the
// runs' own iterations only.
import { BAND_FAMILIES, type Band, bandConfigText, type StudyBands } from '../../core/metrics/studyBands.js';
import { ALGORITHMS } from '../../core/variants/algorithms.js';
import type { ChartData } from './chartData.js';

/** One band a chart draws. */
export interface ChartBand {
  /** Safe recharts data keys: the [lo, hi] range and the mean. */
  rangeKey: string;
  meanKey: string;
  /** "study StarPO". */
  name: string;
  /** "StarPO". */
  family: string;
  color: string;
  metric: string;
  seeds: number;
  /** "study: 8 seeds, 8 × 8 rollouts, lr 0.005, 4 steps/iter; band: min–max over seeds". */
  text: string;
  band: Band;
}

/** The bands of the study for `env` for a chart of `keys` (none when the study lacks them). */
export function bandsForChart(file: StudyBands | null, env: string, keys: readonly string[]): ChartBand[] {
  const perAlgo = file?.envs[env];
  if (!perAlgo) return [];
  const metric = keys.find((k) => BAND_FAMILIES.some((f) => perAlgo[f.algo]?.metrics[k] !== undefined));
  if (metric === undefined) return [];
  const out: ChartBand[] = [];
  BAND_FAMILIES.forEach((f, i) => {
    const entry = perAlgo[f.algo];
    const band = entry?.metrics[metric];
    if (!entry || !band) return;
    out.push({
      rangeKey: `study${i}range`,
      meanKey: `study${i}mean`,
      name: `study ${f.label}`,
      family: f.label,
      // The algorithm's own colour, as in the study's figures.
      color: ALGORITHMS[f.algo].colour,
      metric,
      seeds: entry.seeds,
      text: `study: ${bandConfigText(entry)}; ${entry.variant === 'matched' ? 'steps matched' : `runs: ${entry.variant}`}; band: min–max over seeds`,
      band,
    });
  });
  return out;
}

/** The legend's short line: "study: 8 seeds" (or "8/6 seeds" when the families differ). */
export function bandLegendText(bands: readonly ChartBand[]): string {
  const seeds = [...new Set(bands.map((b) => b.seeds))];
  return `study: ${seeds.join('/')} seed${seeds.length === 1 && seeds[0] === 1 ? '' : 's'}`;
}

/**
 * Rows of a chart with its bands joined in by iteration (a new array; the input is kept). The
 * x-axis follows the runs: a band is drawn only over the iterations the chart's runs span (the
 * whole band when there are no runs yet), so a short run is not squeezed into the study's length.
 */
export function withBands(
  chart: Pick<ChartData, 'data' | 'range'>,
  bands: readonly ChartBand[],
  log = false,
): { data: Record<string, number | [number, number]>[]; range: [number, number] | null } {
  if (bands.length === 0) return chart;
  const byX = new Map<number, Record<string, number | [number, number]>>();
  let xMin = Number.NEGATIVE_INFINITY;
  let xMax = Number.POSITIVE_INFINITY;
  if (chart.data.length > 0) {
    const xs = chart.data.map((r) => r.iteration as number);
    xMin = Math.min(...xs);
    xMax = Math.max(...xs);
  }
  for (const row of chart.data) byX.set(row.iteration as number, { ...row });
  let [lo, hi] = chart.range ?? [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (const b of bands) {
    b.band.iteration.forEach((x, i) => {
      const l = b.band.lo[i] as number;
      const h = b.band.hi[i] as number;
      if (x < xMin || x > xMax) return;
      // A log axis cannot draw a band reaching 0 or below.
      if (log && l <= 0) return;
      let row = byX.get(x);
      if (!row) {
        row = { iteration: x };
        byX.set(x, row);
      }
      row[b.rangeKey] = [l, h];
      row[b.meanKey] = b.band.mean[i] as number;
      lo = Math.min(lo, l);
      hi = Math.max(hi, h);
    });
  }
  const data = [...byX.values()].sort((a, b) => (a.iteration as number) - (b.iteration as number));
  return { data, range: Number.isFinite(lo) && Number.isFinite(hi) ? [lo, hi] : null };
}
