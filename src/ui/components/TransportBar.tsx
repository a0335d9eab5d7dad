// The transport bar (TensorFlow Playground's play/pause/step/reset): Start / Pause / Step one
// iteration / Stop / Reset, the iteration counter, progress and ETA toward the planned
// iterations, the phase ("compiling GPU kernels" on WebGPU's first iteration), and a backend
// override. Start is blocked, with the reason, while the setup has errors.
import { useEffect, useRef, useState } from 'react';
import { BACKEND_CHOICES, fieldByKey } from '../../core/config.js';
import { isSoftwareAdapter } from '../../workers/backendInfo.js';
import { useController } from '../controller/context.js';
import { useApp } from '../store/index.js';
import { RUN_STATUS, type RunStatusSpec } from '../store/runStatus.js';
import { etaText, msPerIteration } from './eta.js';

const PHASE_TEXT: Record<string, string> = {
  loading: 'Loading the base model…',
  compiling: 'Compiling GPU kernels (first iteration)…',
  running: 'Training',
  paused: 'Paused',
  finished: 'Finished',
};

/** The phase line: what the status says in place of the phase, else the phase in words. */
function phaseText(
  can: RunStatusSpec,
  phase: string | null,
  compiled: number | null,
  runError: string | null,
): string {
  if (can.phaseLine) return can.phaseLine.text(runError);
  if (phase === 'compiling' && compiled) return `${PHASE_TEXT.compiling} ${compiled} compiled so far`;
  return phase ? (PHASE_TEXT[phase] ?? phase) : 'Ready';
}

/** Whether Start can be pressed now, and if not, why (the setup, the models, a group or a sweep). */
function useStartState() {
  const errors = useApp((s) => s.configErrors);
  const status = useApp((s) => s.runStatus);
  const busy = useApp((s) => s.busy);
  const ready = useApp((s) => s.baseModelsReady);
  // Seeds side by side and sweeps hold the train workers: one thing trains at a time.
  const fanoutRunning = useApp((s) => s.fanoutRunning);
  const sweeping = useApp((s) => s.sweepProgress !== null);
  const blocked = errors.length > 0 || !ready || fanoutRunning || sweeping;
  const reason = errors.length
    ? `Fix the setup first: ${errors.map((e) => `${fieldByKey.get(e.field)?.label ?? e.field} ${e.message}`).join('; ')}`
    : !ready
      ? 'Loading the base models…'
      : fanoutRunning
        ? 'Seeds are running side by side: stop them or wait for them to finish'
        : sweeping
          ? 'A sweep is running: stop it or wait for it to finish'
          : '';
  const can = RUN_STATUS[status];
  const canStart = !blocked && !busy && can.canStart;
  return { can, busy, blocked, reason, active: can.active, canStart };
}

/**
 * Focus goes where the next action is: Start disables itself, so Pause takes the focus once the
 * run is running (it would otherwise fall to the page body).
 */
function usePauseFocus(training: boolean, busy: boolean) {
  const pauseRef = useRef<HTMLButtonElement>(null);
  const [focusPause, setFocusPause] = useState(false);
  useEffect(() => {
    if (focusPause && training && !busy) {
      pauseRef.current?.focus();
      setFocusPause(false);
    }
  }, [focusPause, training, busy]);
  return { pauseRef, setFocusPause };
}

/** Start (Resume), Pause, Step, Stop, Reset. */
function RunButtons() {
  const { pauseRun, resetRun, resumeRun, startRun, stepRun, stopRun } = useController();
  const { can, busy, blocked, reason, canStart } = useStartState();
  // A pause takes effect after the iteration in flight: say so until the run has paused.
  const [pausing, setPausing] = useState(false);
  useEffect(() => {
    if (!can.training) setPausing(false);
  }, [can.training]);
  const { pauseRef, setFocusPause } = usePauseFocus(can.training, busy);
  return (
    <div className="transport-buttons" role="toolbar" aria-label="Run controls">
      <button
        type="button"
        className="primary"
        data-testid="btn-start"
        disabled={!canStart}
        title={reason || can.startTitle}
        onClick={() => {
          setFocusPause(true);
          return can.resumes ? resumeRun() : startRun();
        }}
      >
        {can.resumes ? 'Resume' : 'Start'}
      </button>
      <button
        type="button"
        data-testid="btn-pause"
        ref={pauseRef}
        disabled={!can.canPause || busy || pausing}
        data-pausing={pausing}
        onClick={() => {
          setPausing(true);
          void pauseRun();
        }}
        title="Pause after the iteration in flight"
      >
        {pausing ? 'Pausing after this iteration…' : 'Pause'}
      </button>
      <button
        type="button"
        data-testid="btn-step"
        disabled={!can.canStep || blocked || busy}
        onClick={() => stepRun()}
        title="Run exactly one iteration (rollout + update), then pause"
      >
        Step
      </button>
      <button
        type="button"
        data-testid="btn-stop"
        disabled={!can.canStop || busy}
        onClick={() => stopRun()}
        title="End the run: save the final checkpoint and summary"
      >
        Stop
      </button>
      <button
        type="button"
        data-testid="btn-reset"
        disabled={!can.canReset || busy}
        onClick={() => resetRun()}
        title="Clear the current run from the view (stored runs stay in the run list)"
      >
        Reset
      </button>
    </div>
  );
}

/** Iteration k of n, the progress bar, the time left (or per iteration) and the phase in words. */
function ProgressBlock() {
  const can = RUN_STATUS[useApp((s) => s.runStatus)];
  const iteration = useApp((s) => s.iteration);
  const phase = useApp((s) => s.phase);
  const compiled = useApp((s) => s.compiled);
  const runPlanned = useApp((s) => s.planned);
  const configPlanned = useApp((s) => s.config.iterations);
  const rows = useApp((s) => s.rows);
  const runError = useApp((s) => s.runError);
  const planned = can.countsSetup ? configPlanned : runPlanned;
  const ms = msPerIteration(rows);
  const phaseName = can.phaseLine?.name ?? phase ?? 'idle';
  return (
    <div className="progress-block">
      <div className="progress" data-testid="progress">
        <span data-testid="iteration" data-iteration={iteration}>
          Iteration {iteration} / {planned}
        </span>
        <progress max={Math.max(1, planned)} value={Math.min(iteration, planned)} aria-label="Progress" />
        <span className="eta" data-testid="eta">
          {can.training ? etaText(ms, planned - iteration) : ms ? `${Math.round(ms)} ms/iteration` : ''}
        </span>
      </div>
      <div
        className={`phase phase-${phaseName}`}
        data-testid="phase"
        data-phase={phaseName}
        aria-live="polite"
      >
        {phaseText(can, phase, compiled, runError)}
      </div>
    </div>
  );
}

/** The backend to use at the next Start (auto, webgpu, wasm, cpu). */
function BackendOverride({ active }: { active: boolean }) {
  const backend = useApp((s) => s.values.backend);
  const setField = useApp((s) => s.setField);
  return (
    <label className="backend-override">
      Backend
      <select
        data-testid="backend-override"
        value={backend}
        disabled={active}
        onChange={(e) => setField('backend', e.target.value)}
        title="auto picks WebGPU → WASM → CPU; a forced choice applies at the next Start"
      >
        {BACKEND_CHOICES.map((b) => (
          <option key={b} value={b}>
            {b}
          </option>
        ))}
      </select>
    </label>
  );
}

export function TransportBar() {
  const { blocked, reason, active } = useStartState();
  const backend = useApp((s) => s.values.backend);
  // WebGPU forced on a software adapter: correct but very slow (minutes to compile its kernels on
  // the first iteration): said before Start, not discovered after it.
  const adapter = useApp((s) => s.backendReport?.adapter ?? null);
  const slowGpu = backend === 'webgpu' && adapter !== null && isSoftwareAdapter(adapter) && !active;
  return (
    <header className="transport region" data-testid="transport-bar">
      <h1 className="brand">
        StarPO <span>Playground</span>
      </h1>
      <RunButtons />
      {slowGpu ? (
        <p className="blocked-reason" role="status" data-testid="software-gpu-warning">
          WebGPU here renders in software: correct, but the first iteration compiles its kernels for minutes
          and each step is far slower than WASM. Choose auto or wasm to train at a usable speed.
        </p>
      ) : null}
      <ProgressBlock />
      <BackendOverride active={active} />
      {blocked ? (
        <p className="blocked-reason" role="status" data-testid="start-blocked">
          {reason}
        </p>
      ) : null}
    </header>
  );
}
