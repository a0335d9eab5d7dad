// Seeds side by side (fanoutRunner.ts): the current setup on N seeds at once, with an optional
// frozen-control lane per seed. One lane per run with its state and verdict, every seed's success
// overlaid with its collapse marker, and "trapped in k of N" with its 95% interval. The group is
// stored as a sweep (lr × seed) and each lane as a run, so it reloads, exports and compares.
import { useMemo, useState } from 'react';
import { wilsonInterval } from '../../core/stats.js';
import type { ChartRun } from '../charts/chartData.js';
import { CHARTS } from '../charts/chartSpecs.js';
import { MetricChart } from '../charts/MetricChart.js';
import { OverlayPanel } from '../components/OverlayPanel.js';
import { useApp } from '../store/index.js';
import { RUN_COLORS } from '../store/viewSlice.js';
import { defaultParallel, runFanout } from './fanoutRunner.js';
import type { Lane } from './fanoutSlice.js';

const SUCCESS = CHARTS.find((c) => c.id === 'success');
const FROZEN_COLOR = '#9ca3af';

/** "trapped in k of N (95%: lo–hi)" over finished lanes of one kind. */
export function trapCount(lanes: readonly Lane[]): { k: number; n: number; interval: [number, number] } {
  const done = lanes.filter((l) => l.state === 'finished' && l.summary);
  const k = done.filter((l) => l.summary?.echoTrap).length;
  return { k, n: done.length, interval: wilsonInterval(k, done.length) };
}

function verdict(l: Lane): string {
  if (l.state === 'failed') return `failed: ${l.error ?? 'unknown error'}`;
  if (l.state === 'queued') return 'queued';
  if (l.state === 'running') return `iteration ${l.iteration} of ${l.planned}`;
  const s = l.summary;
  if (!s) return 'finished';
  if (s.echoTrap) return `trapped (collapse marked at iteration ${s.collapseIteration})`;
  return s.recovered ? `recovered after a collapse at ${s.collapseIteration}` : 'not trapped';
}

export function FanoutPanel() {
  const open = useApp((s) => s.fanoutOpen);
  const lanes = useApp((s) => s.lanes);
  const running = useApp((s) => s.fanoutRunning);
  const config = useApp((s) => s.config);
  const errors = useApp((s) => s.configErrors);
  const status = useApp((s) => s.runStatus);
  const setFanout = useApp((s) => s.setFanout);
  const closePanel = () => setFanout({ fanoutOpen: false });
  const parallel = defaultParallel(
    typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency,
  );
  const [count, setCount] = useState('4');
  const [frozen, setFrozen] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const runs = useMemo<ChartRun[]>(
    () =>
      lanes.map((l, i) => ({
        name: `seed ${l.seed}${l.frozen ? ' · frozen' : ''}`,
        color: l.frozen ? FROZEN_COLOR : (RUN_COLORS[i % RUN_COLORS.length] as string),
        rows: l.rows,
      })),
    [lanes],
  );
  const collapses = useMemo(
    () =>
      lanes.flatMap((l) =>
        l.events
          .filter((e) => e.type === 'echo' && e.kind === 'collapse')
          .map((e) => ({ ...e, message: `seed ${l.seed}: ${e.type === 'echo' ? e.message : ''}` })),
      ),
    [lanes],
  );
  if (!open) return null;
  const n = Number(count);
  const valid = Number.isInteger(n) && n >= 1 && n <= 32;
  const busy = status === 'running' || status === 'starting' || status === 'stopping' || status === 'paused';
  const start = () => {
    setProblem(null);
    const seeds = Array.from({ length: n }, (_, i) => config.seed + i);
    runFanout(config, seeds, frozen, parallel).catch((err: Error) => setProblem(err.message));
  };
  const learners = trapCount(lanes.filter((l) => !l.frozen));
  const controls = trapCount(lanes.filter((l) => l.frozen));
  return (
    <OverlayPanel
      className="fanout-panel"
      label="Seeds side by side"
      testId="fanout-panel"
      title="Seeds side by side"
      closeTestId="fanout-close"
      onClose={closePanel}
    >
      <p className="note">
        The echo trap is a property of seeds: it happens in some runs and not others. This runs the current
        setup on seeds {config.seed}…{config.seed + Math.max(0, n - 1)} at once, {parallel} at a time (one
        train worker each; the rest wait), beside a frozen control (lr 0) on the same seeds if ticked.
      </p>
      <div className="fanout-form">
        <label>
          Seeds{' '}
          <input
            type="text"
            size={4}
            data-testid="fanout-seeds"
            value={count}
            onChange={(e) => setCount(e.target.value)}
          />
        </label>
        <label>
          <input
            type="checkbox"
            data-testid="fanout-frozen"
            checked={frozen}
            onChange={(e) => setFrozen(e.target.checked)}
          />{' '}
          frozen-control lane per seed
        </label>
        <button
          type="button"
          className="primary"
          data-testid="fanout-start"
          disabled={!valid || running || busy || errors.length > 0}
          title={busy ? 'Stop the current run first' : errors.length > 0 ? 'Fix the setup first' : ''}
          onClick={start}
        >
          Start {valid ? n * (frozen ? 2 : 1) : ''} runs
        </button>
      </div>
      {!valid ? <p className="field-error">Seeds: a whole number from 1 to 32.</p> : null}
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {lanes.length > 0 ? (
        <>
          <p
            className="fanout-count"
            data-testid="fanout-count"
            data-trapped={learners.k}
            data-finished={learners.n}
          >
            Trapped in{' '}
            <b>
              {learners.k} of {learners.n}
            </b>{' '}
            finished seeds (95% interval {learners.interval[0].toFixed(2)}–{learners.interval[1].toFixed(2)})
            {controls.n > 0 ? `; the frozen control in ${controls.k} of ${controls.n}` : ''}.
          </p>
          <ul className="fanout-lanes">
            {lanes.map((l) => (
              <li
                key={`${l.seed}-${l.frozen}`}
                data-testid="fanout-lane"
                data-state={l.state}
                data-seed={l.seed}
                data-frozen={l.frozen}
              >
                seed {l.seed}
                {l.frozen ? ' · frozen control' : ''} — {verdict(l)}
              </li>
            ))}
          </ul>
          {SUCCESS ? <MetricChart spec={SUCCESS} runs={runs} events={collapses} focus={null} /> : null}
        </>
      ) : null}
    </OverlayPanel>
  );
}
