// The centre region: the fault, verdict and echo-trap banners, then one fixed-height chart per entry of CHARTS,
// each drawing the current run and any overlaid stored runs (and, faintly, the echo-trap study's
// bands for the run's env, with their switch in the head). While a run trains the charts take
// its rows at a pace the machine can draw (charts/pacing.ts), so the page keeps answering.
import { Fragment, useMemo } from 'react';
import type { ChartRun } from '../charts/chartData.js';
import { CHARTS } from '../charts/chartSpecs.js';
import { MetricChart } from '../charts/MetricChart.js';
import { MiMatrix } from '../charts/MiMatrix.js';
import { usePaced } from '../charts/pacing.js';
import { StudyBandsToggle, useChartBands } from '../charts/StudyBands.js';
import { useApp } from '../store/index.js';
import { RUN_COLORS } from '../store/viewSlice.js';
import { EchoBanner } from './EchoBanner.js';
import { FaultBanner } from './FaultBanner.js';
import { InterruptedBanner } from './InterruptedBanner.js';
import { RunVerdictBanner } from './RunVerdictBanner.js';

export function ChartsArea() {
  const liveRows = useApp((s) => s.rows);
  const liveEvents = useApp((s) => s.events);
  const status = useApp((s) => s.runStatus);
  const live = useMemo(() => ({ rows: liveRows, events: liveEvents }), [liveRows, liveEvents]);
  const { rows, events } = usePaced(live, status === 'running');
  const runName = useApp((s) => s.runName);
  const overlays = useApp((s) => s.overlays);
  const focus = useApp((s) => s.focusIteration);
  const bands = useChartBands();
  const runs = useMemo<ChartRun[]>(
    () => [
      { name: runName || 'this run', color: RUN_COLORS[0] as string, rows },
      ...overlays.map((o) => ({ name: o.name, color: o.color, rows: o.rows })),
    ],
    [rows, runName, overlays],
  );
  return (
    <main className="charts-area region" data-testid="charts-area" aria-label="Training charts">
      <div className="charts-head">
        <h2>Charts</h2>
        <span className="charts-count" data-testid="rows-count" data-rows={rows.length}>
          {rows.length} iteration{rows.length === 1 ? '' : 's'}
          {overlays.length > 0 ? ` · ${overlays.length} overlaid` : ''}
        </span>
        <StudyBandsToggle />
      </div>
      <InterruptedBanner />
      <FaultBanner />
      <RunVerdictBanner />
      <EchoBanner />
      {status === 'idle' && rows.length === 0 && overlays.length === 0 ? (
        <p className="empty-note">
          Start a run to see success, reward variance, entropy, KL and gradient norm here — or pick a preset
          in the setup.
        </p>
      ) : null}
      <div className="chart-grid">
        {CHARTS.map((spec) => (
          <Fragment key={spec.id}>
            <MetricChart spec={spec} runs={runs} events={events} focus={focus} bands={bands.get(spec.id)} />
            {/* The matrix the MI proxy is computed from, beside the MI chart. */}
            {spec.id === 'mi' ? <MiMatrix /> : null}
          </Fragment>
        ))}
      </div>
    </main>
  );
}
