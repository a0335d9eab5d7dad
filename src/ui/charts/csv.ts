// CSV export of chart series (RFC 4180 quoting), one row per iteration, one column per series.

/** Quotes a cell when it holds a comma, quote or newline. */
export function csvCell(v: string | number | undefined): string {
  if (v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A named series of (iteration, value) pairs. */
export interface CsvSeries {
  name: string;
  points: readonly { iteration: number; value: number }[];
}

/** `iteration,<name>,…` with rows for every iteration present in any series, ascending. */
export function seriesToCsv(series: readonly CsvSeries[]): string {
  const its = new Set<number>();
  const maps = series.map((s) => {
    const m = new Map<number, number>();
    for (const p of s.points) {
      m.set(p.iteration, p.value);
      its.add(p.iteration);
    }
    return m;
  });
  const lines = [['iteration', ...series.map((s) => s.name)].map(csvCell).join(',')];
  for (const it of [...its].sort((a, b) => a - b)) {
    lines.push([it, ...maps.map((m) => m.get(it))].map(csvCell).join(','));
  }
  return `${lines.join('\n')}\n`;
}
