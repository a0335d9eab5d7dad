// Summaries of the runs ticked "compare", side by side: setup differences first, then what the
// echo-trap detector concluded.
import { type Config, FIELDS } from '../../core/config.js';
import { useApp } from '../store/index.js';

const pct = (v: number | undefined) => (v === undefined ? '–' : `${(v * 100).toFixed(0)}%`);

export function CompareTable() {
  const ids = useApp((s) => s.compareIds);
  const runs = useApp((s) => s.storedRuns).filter((r) => ids.includes(r.id));
  if (runs.length === 0) return null;
  const differing = FIELDS.filter(
    (f) => new Set(runs.map((r) => JSON.stringify(r.config[f.key as keyof Config]))).size > 1,
  );
  const rows: [string, (r: (typeof runs)[number]) => string][] = [
    ...differing.map(
      (f) =>
        [f.label, (r: (typeof runs)[number]) => String(r.config[f.key as keyof Config])] as [
          string,
          (r: (typeof runs)[number]) => string,
        ],
    ),
    ['Status', (r) => r.status],
    ['Iterations', (r) => `${r.iteration} / ${r.config.iterations}`],
    ['Base', (r) => r.base.label],
    ['Peak success', (r) => (r.summary ? `${pct(r.summary.peakSuccess)} @ ${r.summary.peakIteration}` : '–')],
    ['Final success', (r) => pct(r.summary?.finalSuccess)],
    [
      'Echo trap',
      (r) => (r.summary ? (r.summary.echoTrap ? `yes @ ${r.summary.collapseIteration}` : 'no') : '–'),
    ],
    ['Converged', (r) => (r.summary ? (r.summary.converged ? 'yes' : 'no') : '–')],
    ['First warning', (r) => String(r.summary?.firstWarningIteration ?? '–')],
    ['False warnings', (r) => String(r.summary?.falseWarnings ?? '–')],
  ];
  return (
    <table className="compare-table" data-testid="compare-table">
      <thead>
        <tr>
          <th scope="col">Run</th>
          {runs.map((r) => (
            <th key={r.id} scope="col">
              {r.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, get]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            {runs.map((r) => (
              <td key={r.id}>{get(r)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
