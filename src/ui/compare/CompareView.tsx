// The compare view (issue 11): any runs side by side — their configs as a diff (only what
// differs, from configDiff) beside their curves overlaid on the main charts (MetricChart).
// Opened from the run list ("Compare selected"), from a sweep cell, and by the tour's last step.
import { useMemo } from 'react';
import type { ChartRun } from '../charts/chartData.js';
import { CHARTS } from '../charts/chartSpecs.js';
import { MetricChart } from '../charts/MetricChart.js';
import { OverlayPanel } from '../components/OverlayPanel.js';
import { useApp } from '../store/index.js';
import { configDiff, runLabels } from './configDiff.js';

const COMPARE_CHARTS = ['success', 'reward-std', 'entropy', 'mi', 'grad-norm', 'malformed', 'lengths', 'kl'];

export function CompareView({ embedded = false }: { embedded?: boolean }) {
  const view = useApp((s) => s.compareView);
  const close = useApp((s) => s.closeCompare);
  const runs = view?.runs;
  // Short legends (algorithm, seed, what else differs); a stored run's name spells out its
  // whole config and stays as each label's title.
  const labels = useMemo(() => runLabels((runs ?? []).map((r) => r.config)), [runs]);
  const chartRuns = useMemo<ChartRun[]>(
    () => (runs ?? []).map((r, i) => ({ name: labels[i] ?? r.name, color: r.color, rows: r.rows })),
    [runs, labels],
  );
  const diff = useMemo(() => configDiff((runs ?? []).map((r) => r.config)), [runs]);
  const specs = useMemo(() => CHARTS.filter((c) => COMPARE_CHARTS.includes(c.id)), []);
  if (!view || !runs) return null;
  return (
    <OverlayPanel
      className="compare-view"
      label={`Compare: ${view.title}`}
      testId="compare-view"
      data={{ runs: runs.length }}
      title={view.title}
      closeTestId="compare-close"
      closeLabel={view.from === 'sweeps' ? 'Back to sweeps' : 'Close'}
      onClose={close}
      embedded={embedded}
    >
      <div className="compare-body">
        <div className="compare-side">
          <ul className="compare-legend">
            {runs.map((r, i) => (
              <li key={r.id} data-testid="compare-run" title={r.name}>
                <span className="swatch" style={{ background: r.color }} /> {labels[i]}
              </li>
            ))}
          </ul>
          <h3>Config: what differs</h3>
          {diff.length === 0 ? (
            <p className="note" data-testid="config-diff-empty">
              {runs.length < 2 ? 'Pick two or more runs to see a diff.' : 'The configs are identical.'}
            </p>
          ) : (
            <table className="compare-table" data-testid="config-diff">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  {runs.map((r, i) => (
                    <th key={r.id} scope="col" style={{ color: r.color }} title={r.name}>
                      {labels[i]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {diff.map((d) => (
                  <tr key={d.key} data-testid="config-diff-row" data-key={d.key}>
                    <th scope="row">{d.label}</th>
                    {d.values.map((v, i) => (
                      <td key={runs[i]?.id ?? i}>{v}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div className="chart-grid compare-charts">
          {specs.map((spec) => (
            <MetricChart
              key={spec.id}
              spec={spec}
              runs={chartRuns}
              events={runs[0]?.events ?? []}
              focus={null}
            />
          ))}
        </div>
      </div>
    </OverlayPanel>
  );
}
