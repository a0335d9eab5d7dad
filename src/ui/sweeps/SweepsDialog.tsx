// The sweeps dialog (issue 11): choose up to two settings with a few values each and a number
// of seeds, run them on top of the current setup in the train worker (queued one after
// another, see sweepRunner.ts), and browse stored sweeps — results table, heatmap and plots —
// exported as a bundle in the CLI's sweep format; CLI sweep bundles import here too
// (bundleImport.ts).
import { useEffect, useState } from 'react';
import { fieldByKey } from '../../core/config.js';
import { makeBundle, type SweepAxis } from '../../core/files/sweepBundle.js';
import { parseAxis, parseSeeds, planSweep, SWEEPABLE } from '../../core/sweepPlan.js';
import { msPerIteration } from '../components/eta.js';
import { JsonFileButton, OverlayPanel } from '../components/OverlayPanel.js';
import { useController } from '../controller/context.js';
import { download } from '../download.js';
import { useApp } from '../store/index.js';
import { setupLayers } from '../store/setupLayers.js';
import type { SweepRecord } from '../store/sweepSlice.js';
import { importBundle } from './bundleImport.js';
import { SweepResults } from './SweepResults.js';
import { refreshSweeps } from './sweepRunner.js';
import { deleteSweep, markSweepsInterrupted } from './sweepsDb.js';

function AxisInput({
  n,
  keyValue,
  text,
  onKey,
  onText,
}: {
  n: number;
  keyValue: string;
  text: string;
  onKey(k: string): void;
  onText(t: string): void;
}) {
  return (
    <div className="sweep-axis">
      <label>
        Axis {n}{' '}
        <select data-testid={`sweep-axis${n}-key`} value={keyValue} onChange={(e) => onKey(e.target.value)}>
          {n === 2 ? <option value="">(none)</option> : null}
          {SWEEPABLE.map((f) => (
            <option key={f.key} value={f.key}>
              {f.label} ({f.key})
            </option>
          ))}
        </select>
      </label>
      <input
        type="text"
        data-testid={`sweep-axis${n}-values`}
        aria-label={`Axis ${n} values, comma-separated`}
        placeholder="values, comma-separated"
        value={text}
        disabled={!keyValue}
        onChange={(e) => onText(e.target.value)}
      />
    </div>
  );
}

/** The sweep the form describes: its axes, seeds and planned runs, or the problem with it. */
function sweepPlanOf(k1: string, v1: string, k2: string, v2: string, seeds: string, iters: string) {
  let plan: ReturnType<typeof planSweep> = [];
  let axes: SweepAxis[] = [];
  let seedList: number[] = [];
  let problem: string | null = null;
  try {
    axes = [parseAxis(k1, v1), ...(k2 ? [parseAxis(k2, v2)] : [])];
    if (k2 === k1) throw new Error('the two axes must differ');
    seedList = parseSeeds(seeds);
    const it = Number(iters);
    if (!Number.isInteger(it) || it < 1 || it > 100000)
      throw new Error('iterations per run: a whole number from 1');
    const setup = setupLayers(useApp.getState());
    plan = planSweep({ ...setup, edits: { ...setup.edits, iterations: it } }, axes, seedList);
  } catch (err) {
    problem = (err as Error).message;
  }
  return { plan, axes, seedList, problem };
}

/** The running sweep's progress with its Stop, or Start when none runs. */
function SweepRunControls({ problem, onStart }: { problem: string | null; onStart: () => void }) {
  const controller = useController();
  const progress = useApp((s) => s.sweepProgress);
  return progress ? (
    <div
      className="sweep-progress"
      data-testid="sweep-progress"
      data-done={progress.done}
      data-planned={progress.planned}
    >
      Run {progress.done + 1} of {progress.planned}: {progress.current} (iteration {progress.iteration})
      <progress max={progress.planned} value={progress.done} />
      <button
        type="button"
        className="small danger"
        data-testid="sweep-cancel"
        onClick={() => void controller.cancelSweep()}
      >
        Stop sweep
      </button>
    </div>
  ) : (
    <button
      type="button"
      className="primary"
      data-testid="sweep-start"
      disabled={problem !== null}
      onClick={onStart}
    >
      Start sweep
    </button>
  );
}

function NewSweep() {
  const controller = useController();
  const config = useApp((s) => s.config);
  const [k1, setK1] = useState('lr');
  // Step sizes measured to learn on the DoorKey base (1e-4 holds, 5e-4 learns faster); the lr
  // help says 1e-3 and above break the policy at once without a warm-up.
  const [v1, setV1] = useState('0.0001, 0.0005');
  const [k2, setK2] = useState('algorithm');
  const [v2, setV2] = useState('starpo-ppo, starpo-s');
  const rows = useApp((s) => s.rows);
  const msPerIt = msPerIteration(rows);
  const [seeds, setSeeds] = useState('2');
  const [iters, setIters] = useState(String(config.iterations));
  const [error, setError] = useState<string | null>(null);
  const { plan, axes, seedList, problem } = sweepPlanOf(k1, v1, k2, v2, seeds, iters);
  const start = () => {
    setError(null);
    const name = `${axes.map((a) => a.key).join(' × ')} · ${seedList.length} seed(s) · ${config.env}`;
    controller.runSweep(name, axes, seedList, plan).catch((err: Error) => setError(err.message));
  };
  return (
    <section className="sweep-new" aria-label="New sweep">
      <h3>New sweep (on top of the current setup)</h3>
      <AxisInput n={1} keyValue={k1} text={v1} onKey={setK1} onText={setV1} />
      <AxisInput n={2} keyValue={k2} text={v2} onKey={setK2} onText={setV2} />
      <div className="sweep-axis">
        <label>
          Seeds{' '}
          <input
            type="text"
            data-testid="sweep-seeds"
            value={seeds}
            onChange={(e) => setSeeds(e.target.value)}
            size={6}
          />
        </label>
        <label>
          Iterations per run{' '}
          <input
            type="text"
            data-testid="sweep-iterations"
            value={iters}
            onChange={(e) => setIters(e.target.value)}
            size={6}
          />
        </label>
      </div>
      {problem ? (
        <p className="field-error" role="alert" data-testid="sweep-problem">
          {problem}
        </p>
      ) : (
        <p className="note" data-testid="sweep-plan" data-runs={plan.length}>
          {plan.length} runs of {fieldByKey.get('iterations')?.label.toLowerCase()} {iters}, queued one after
          another in the train worker (it holds one backend and one run at a time; parallel runs would share
          the same cores).{' '}
          <span data-testid="sweep-time">
            {msPerIt !== null
              ? `About ${durationText((msPerIt * plan.length * Number(iters)) / 1000)} at this page’s last measured ${(msPerIt / 1000).toFixed(1)} s an iteration (other settings take longer or shorter).`
              : 'Time unknown: run or Step one iteration of the setup first to measure this machine’s pace.'}
          </span>
        </p>
      )}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <SweepRunControls problem={problem} onStart={start} />
    </section>
  );
}

/** One stored sweep: its name (selects it), status and count, why it stopped, Export and Delete. */
function SweepItem({ s, selected }: { s: SweepRecord; selected: boolean }) {
  const setSweeps = useApp((st) => st.setSweeps);
  return (
    <li className={`run-item${selected ? ' selected' : ''}`} data-testid="sweep-item" data-status={s.status}>
      <button type="button" className="link" onClick={() => setSweeps({ selectedSweep: s.id })}>
        {s.name}
      </button>
      <span className="run-meta">
        {s.status} · {s.runs.length}
        {s.planned ? `/${s.planned}` : ''} runs
      </span>
      {s.reason ? (
        <span className="field-error" data-testid="sweep-reason">
          {s.reason}
        </span>
      ) : null}
      {s.status === 'interrupted' ? (
        <span className="note" data-testid="sweep-interrupted">
          The tab was closed or reloaded while it ran: the {s.runs.length} finished run
          {s.runs.length === 1 ? ' is' : 's are'} kept; the others did not finish. Run it again to measure
          them.
        </span>
      ) : null}
      <span className="run-actions">
        <button
          type="button"
          className="small"
          data-testid="sweep-export"
          onClick={() =>
            download(
              `${s.name.replace(/[^\w.-]+/g, '_').slice(0, 60)}.sweep.json`,
              JSON.stringify(makeBundle(s.name, s.runs, s.axes)),
            )
          }
        >
          Export
        </button>
        <button
          type="button"
          className="small danger"
          disabled={s.status === 'running'}
          onClick={() => {
            if (window.confirm(`Delete the sweep "${s.name}"?`)) void deleteSweep(s.id).then(refreshSweeps);
          }}
        >
          Delete
        </button>
      </span>
    </li>
  );
}

export function SweepsDialog() {
  const open = useApp((s) => s.sweepsOpen);
  const sweeps = useApp((s) => s.sweeps);
  const selected = useApp((s) => s.selectedSweep);
  const setSweeps = useApp((s) => s.setSweeps);
  const closeDialog = () => setSweeps({ sweepsOpen: false });
  useEffect(() => {
    if (open) void markSweepsInterrupted().then(refreshSweeps);
  }, [open]);
  if (!open) return null;
  const shown = sweeps.find((s) => s.id === selected) ?? sweeps[0];
  return (
    <OverlayPanel
      className="sweeps-dialog"
      label="Sweeps"
      testId="sweeps-dialog"
      title="Sweeps"
      closeTestId="sweeps-close"
      onClose={closeDialog}
      head={
        <JsonFileButton
          label="Import sweep bundle…"
          buttonTestId="sweep-import-btn"
          inputTestId="sweep-import"
          onFile={(f) => void importBundle(f)}
        />
      }
    >
      <div className="sweeps-body">
        <div className="sweeps-side">
          <NewSweep />
          <h3>Stored sweeps</h3>
          <ul className="run-list">
            {sweeps.map((s) => (
              <SweepItem key={s.id} s={s} selected={s.id === shown?.id} />
            ))}
          </ul>
        </div>
        <div className="sweeps-main">
          {shown ? (
            <>
              <h3 data-testid="sweep-title">{shown.name}</h3>
              <SweepResults runs={shown.runs} axes={shown.axes} />
            </>
          ) : (
            <p className="note">
              No sweeps yet: start one, or import a bundle made by `starpo sweep-bundle`.
            </p>
          )}
        </div>
      </div>
    </OverlayPanel>
  );
}

/** "3 h 05 min", "12 min", "40 s". */
function durationText(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  return m > 0 ? `${m} min` : `${s} s`;
}
