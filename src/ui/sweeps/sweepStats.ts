// What the sweep views show, computed from the runs: the heatmap cells (echo-trap share over the
// two axes), the per-value final success with its seed spread, and the sortable result rows.
import { axisValue, type SweepAxis, type SweepRunFiles } from '../../core/files/sweepBundle.js';
import { mean } from '../../core/stats.js';

export type SweepRun = Pick<SweepRunFiles, 'path' | 'preset' | 'algo' | 'seed' | 'config' | 'summary'>;

export interface HeatCell {
  x: string;
  y: string;
  runs: number;
  echoTraps: number;
  meanFinal: number;
  paths: string[];
}

/** Cells of the x × y grid (y is '' with one axis), in axis order; empty cells have runs 0. */
export function heatmap(runs: readonly SweepRun[], axes: readonly SweepAxis[]): HeatCell[] {
  const [ax, ay] = axes;
  if (!ax) return [];
  const ys = ay ? ay.values : [''];
  const cells: HeatCell[] = [];
  for (const y of ys) {
    for (const x of ax.values) {
      const inCell = runs.filter((r) => axisValue(r, ax) === x && (!ay || axisValue(r, ay) === y));
      cells.push({
        x,
        y,
        runs: inCell.length,
        echoTraps: inCell.filter((r) => r.summary.echoTrap).length,
        meanFinal: inCell.length
          ? inCell.reduce((a, r) => a + r.summary.finalSuccess, 0) / inCell.length
          : Number.NaN,
        paths: inCell.map((r) => r.path),
      });
    }
  }
  return cells;
}

export interface ValuePoint {
  value: string;
  mean: number;
  min: number;
  max: number;
  finals: number[];
}

/** Final success per value of one axis (all runs with that value, every seed and other value). */
export function finalByValue(runs: readonly SweepRun[], axis: SweepAxis): ValuePoint[] {
  return axis.values.map((value) => {
    const finals = runs.filter((r) => axisValue(r, axis) === value).map((r) => r.summary.finalSuccess);
    return {
      value,
      finals,
      mean: mean(finals),
      min: finals.length ? Math.min(...finals) : Number.NaN,
      max: finals.length ? Math.max(...finals) : Number.NaN,
    };
  });
}

export type SortKey = 'cell' | 'seed' | 'peak' | 'final' | 'trap' | 'lead';

export interface ResultRow {
  path: string;
  cell: string;
  seed: number;
  peak: number;
  final: number;
  trap: boolean;
  lead: number | null;
}

/** The result table's rows: cell label (axis values), seed, peak/final success, trap, lead time. */
export function resultRows(runs: readonly SweepRun[], axes: readonly SweepAxis[]): ResultRow[] {
  return runs.map((r) => ({
    path: r.path,
    cell: axes.map((a) => `${a.key}=${axisValue(r, a)}`).join(', ') || r.preset,
    seed: r.seed,
    peak: r.summary.peakSuccess,
    final: r.summary.finalSuccess,
    trap: r.summary.echoTrap,
    lead: r.summary.firstWarningLead,
  }));
}

/** Sorted copy; nulls (no lead time) last in either direction. */
export function sortRows(rows: readonly ResultRow[], key: SortKey, dir: 1 | -1): ResultRow[] {
  const val = (r: ResultRow): string | number | null =>
    key === 'trap' ? Number(r.trap) : key === 'cell' ? r.cell : r[key];
  return [...rows].sort((a, b) => {
    const va = val(a);
    const vb = val(b);
    if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1;
    if (typeof va === 'string' || typeof vb === 'string') return dir * String(va).localeCompare(String(vb));
    return dir * (va - vb);
  });
}
