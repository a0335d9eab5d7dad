// A sweep's results: the echo-trap heatmap over the two axes (each cell opens its runs overlaid
// in the compare view, in the sweeps dialog's place), final success against each axis's values
// with the seed spread, and the sortable table of runs (peak and final success, echo trap,
// warning lead time).
import { useMemo, useState } from 'react';
import type { SweepAxis, SweepRunFiles } from '../../core/files/sweepBundle.js';
import { useApp } from '../store/index.js';
import { RUN_COLORS } from '../store/viewSlice.js';
import { finalByValue, heatmap, resultRows, type SortKey, sortRows } from './sweepStats.js';

const pct = (v: number) => (Number.isFinite(v) ? `${Math.round(v * 100)}%` : '–');

function openRuns(title: string, runs: readonly SweepRunFiles[]): void {
  useApp.getState().openCompare(
    title,
    runs.map((r, i) => ({
      id: r.path,
      name: r.path,
      color: RUN_COLORS[i % RUN_COLORS.length] as string,
      config: r.config,
      rows: r.metrics,
      events: r.events,
    })),
    'sweeps',
  );
}

function Heatmap({ runs, axes }: { runs: SweepRunFiles[]; axes: SweepAxis[] }) {
  const cells = useMemo(() => heatmap(runs, axes), [runs, axes]);
  const [ax, ay] = axes;
  if (!ax) return null;
  const ys = ay ? ay.values : [''];
  return (
    <div className="sweep-heatmap" data-testid="sweep-heatmap">
      <h4>
        Echo traps by {ax.key}
        {ay ? ` × ${ay.key}` : ''}
      </h4>
      <table>
        <thead>
          <tr>
            <th scope="col">{ay ? `${ay.key} \\ ${ax.key}` : ax.key}</th>
            {ax.values.map((x) => (
              <th key={x} scope="col">
                {x}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ys.map((y) => (
            <tr key={y}>
              <th scope="row">{y || 'all'}</th>
              {cells
                .filter((c) => c.y === y)
                .map((c) => {
                  const share = c.runs ? c.echoTraps / c.runs : 0;
                  return (
                    <td key={c.x}>
                      <button
                        type="button"
                        className="heat-cell"
                        data-testid="heatmap-cell"
                        data-runs={c.runs}
                        data-traps={c.echoTraps}
                        disabled={c.runs === 0}
                        style={{ background: c.runs ? `rgba(220, 38, 38, ${0.1 + 0.8 * share})` : undefined }}
                        title={`${c.echoTraps} of ${c.runs} runs fell into the echo trap; mean final success ${pct(c.meanFinal)}. Click to overlay them.`}
                        onClick={() =>
                          openRuns(
                            `${ax.key}=${c.x}${ay ? `, ${ay.key}=${c.y}` : ''}`,
                            runs.filter((r) => c.paths.includes(r.path)),
                          )
                        }
                      >
                        {c.runs ? `${c.echoTraps}/${c.runs}` : '–'}
                        <small>{c.runs ? ` final ${pct(c.meanFinal)}` : ''}</small>
                      </button>
                    </td>
                  );
                })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Final success against one axis: seed points, min–max whisker and a line through the means. */
function ValuePlot({ runs, axis }: { runs: SweepRunFiles[]; axis: SweepAxis }) {
  const pts = useMemo(() => finalByValue(runs, axis), [runs, axis]);
  const w = 260;
  const h = 140;
  const pad = 28;
  const x = (i: number) => pad + (w - 2 * pad) * (pts.length === 1 ? 0.5 : i / (pts.length - 1));
  const y = (v: number) => h - pad + 6 - (h - pad - 10) * v;
  const means = pts.map((p, i) => (Number.isFinite(p.mean) ? `${x(i)},${y(p.mean)}` : '')).filter(Boolean);
  return (
    <figure className="sweep-plot" data-testid={`sweep-plot-${axis.key}`}>
      <figcaption>Final success vs {axis.key}</figcaption>
      <svg width={w} height={h} role="img" aria-label={`Final success against ${axis.key}, one dot per run`}>
        <line x1={pad} x2={w - pad / 2} y1={y(0)} y2={y(0)} stroke="#9ca3af" />
        <line x1={pad} x2={pad} y1={y(0)} y2={y(1)} stroke="#9ca3af" />
        <text x={2} y={y(1) + 4} fontSize={9}>
          1
        </text>
        <text x={2} y={y(0) + 4} fontSize={9}>
          0
        </text>
        {pts.map((p, i) => (
          <g key={p.value}>
            {Number.isFinite(p.min) ? (
              <line x1={x(i)} x2={x(i)} y1={y(p.min)} y2={y(p.max)} stroke="#93c5fd" strokeWidth={6} />
            ) : null}
            {p.finals.map((f, k) => (
              <circle
                // biome-ignore lint/suspicious/noArrayIndexKey: the dots of one value are positional
                key={`${k}-${f}`}
                cx={x(i) + (k - (p.finals.length - 1) / 2) * 4}
                cy={y(f)}
                r={2.5}
                fill="#1d4ed8"
                data-testid="sweep-plot-point"
              />
            ))}
            <text x={x(i)} y={h - 4} fontSize={9} textAnchor="middle">
              {p.value}
            </text>
          </g>
        ))}
        {means.length > 1 ? (
          <polyline points={means.join(' ')} fill="none" stroke="#dc2626" strokeWidth={1.5} />
        ) : null}
      </svg>
    </figure>
  );
}

const COLUMNS: { key: SortKey; label: string; help?: string }[] = [
  { key: 'cell', label: 'Cell' },
  { key: 'seed', label: 'Seed' },
  {
    key: 'peak',
    label: 'Peak success',
    help: 'The best mean success over 5 consecutive iterations (after the first 5), not one iteration’s',
  },
  { key: 'final', label: 'Final success', help: 'The mean success over the last 10 iterations' },
  { key: 'trap', label: 'Echo trap' },
  { key: 'lead', label: 'Lead time' },
];

export function SweepResults({ runs, axes }: { runs: SweepRunFiles[]; axes: SweepAxis[] }) {
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'cell', dir: 1 });
  const rows = useMemo(() => sortRows(resultRows(runs, axes), sort.key, sort.dir), [runs, axes, sort]);
  if (runs.length === 0) return <p className="note">No finished runs yet.</p>;
  return (
    <div className="sweep-results" data-testid="sweep-results">
      <div className="sweep-figures">
        <Heatmap runs={runs} axes={axes} />
        {axes.map((a) => (
          <ValuePlot key={a.key} runs={runs} axis={a} />
        ))}
      </div>
      <table className="compare-table sweep-table" data-testid="sweep-table">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                aria-sort={sort.key === c.key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
              >
                <button
                  type="button"
                  className="link"
                  title={c.help}
                  data-testid={`sweep-sort-${c.key}`}
                  onClick={() => setSort({ key: c.key, dir: sort.key === c.key ? (-sort.dir as 1 | -1) : 1 })}
                >
                  {c.label}
                  {sort.key === c.key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.path} data-testid="sweep-row" data-final={r.final}>
              <td>
                <button
                  type="button"
                  className="link"
                  title="Open this run in the compare view"
                  onClick={() =>
                    openRuns(
                      r.path,
                      runs.filter((x) => x.path === r.path),
                    )
                  }
                >
                  {r.cell}
                </button>
              </td>
              <td>{r.seed}</td>
              <td>{pct(r.peak)}</td>
              <td>{pct(r.final)}</td>
              <td>{r.trap ? 'yes' : 'no'}</td>
              <td>{r.lead === null ? '–' : `${r.lead} it`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note" data-testid="sweep-table-note">
        Peak success: the best mean over 5 consecutive iterations after the first 5. Final success: the mean
        over the last 10 iterations. Both are means of the rollouts’ success, as the verdict reads them.
      </p>
    </div>
  );
}
