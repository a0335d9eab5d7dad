// Line charts as standalone SVG files for docs/echo-trap.md: one line per series (the mean
// over seeds) with a shaded band of ± one standard deviation, generated from the runs' metrics
// — never drawn by hand.
import type { MetricRow } from '../../core/metrics/keys.js';
import { meanStd } from '../../core/stats.js';

export interface Series {
  label: string;
  colour: string;
  /** One metric series per seed. */
  runs: readonly MetricRow[][];
}

const W = 640;
const H = 320;
const M = { left: 56, right: 16, top: 34, bottom: 40 };

function escapeXml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
}

/** Mean and std per iteration over seeds, for iterations where any seed has the key. */
export function bandOf(
  runs: readonly MetricRow[][],
  key: string,
): { x: number; mean: number; std: number }[] {
  const byIt = new Map<number, number[]>();
  for (const rows of runs) {
    for (const r of rows) {
      const v = (r as Record<string, number>)[key];
      if (typeof v === 'number' && Number.isFinite(v))
        byIt.set(r.iteration, [...(byIt.get(r.iteration) ?? []), v]);
    }
  }
  return [...byIt.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([x, vs]) => {
      const { mean, std } = meanStd(vs);
      return { x, mean, std };
    });
}

/** An SVG line chart of `key` for each series, with seed bands; `log` plots log10. */
export function lineChartSvg(title: string, key: string, series: readonly Series[], log = false): string {
  const tf = (v: number) => (log ? Math.log10(Math.max(v, 1e-8)) : v);
  const bands = series.map((s) => bandOf(s.runs, key));
  const pts = bands.flat();
  const xs = pts.map((p) => p.x);
  const ys = pts.flatMap((p) => [tf(p.mean - p.std), tf(p.mean + p.std), tf(p.mean)]);
  const x0 = xs.length ? Math.min(...xs) : 0;
  const x1 = xs.length ? Math.max(...xs, x0 + 1) : 1;
  let y0 = ys.length ? Math.min(...ys) : 0;
  let y1 = ys.length ? Math.max(...ys) : 1;
  if (y1 - y0 < 1e-9) {
    y0 -= 0.5;
    y1 += 0.5;
  }
  const px = (x: number) => M.left + ((x - x0) / (x1 - x0)) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - ((y - y0) / (y1 - y0)) * (H - M.top - M.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${M.left}" y="18" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="#999"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="#999"/>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const yv = y0 + ((y1 - y0) * i) / 4;
    const label = log ? `1e${yv.toFixed(1)}` : yv.toFixed(2);
    parts.push(`<text x="${M.left - 6}" y="${py(yv) + 4}" text-anchor="end" fill="#555">${label}</text>`);
    const xv = x0 + ((x1 - x0) * i) / 4;
    parts.push(
      `<text x="${px(xv)}" y="${H - M.bottom + 16}" text-anchor="middle" fill="#555">${Math.round(xv)}</text>`,
    );
  }
  parts.push(
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 6}" text-anchor="middle" fill="#555">iteration</text>`,
  );
  bands.forEach((band, i) => {
    const s = series[i] as Series;
    if (band.length === 0) return;
    const upper = band.map((p) => `${px(p.x).toFixed(1)},${py(tf(p.mean + p.std)).toFixed(1)}`);
    const lower = band.map((p) => `${px(p.x).toFixed(1)},${py(tf(p.mean - p.std)).toFixed(1)}`).reverse();
    parts.push(
      `<polygon points="${[...upper, ...lower].join(' ')}" fill="${s.colour}" fill-opacity="0.15" stroke="none"/>`,
    );
    parts.push(
      `<polyline points="${band.map((p) => `${px(p.x).toFixed(1)},${py(tf(p.mean)).toFixed(1)}`).join(' ')}" fill="none" stroke="${s.colour}" stroke-width="2"/>`,
    );
    parts.push(
      `<rect x="${W - M.right - 170}" y="${M.top + 4 + i * 16}" width="10" height="10" fill="${s.colour}"/><text x="${W - M.right - 155}" y="${M.top + 13 + i * 16}">${escapeXml(`${s.label} (${s.runs.length} seeds)`)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
