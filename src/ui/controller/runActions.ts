// The run lifecycle as the transport bar drives it: start (from the setup, the chosen base model
// and a fresh run id), pause, resume, step, stop, reset. One action at a time (the store's
// `busy`); a failed action says why in the notice. A run is stored once the worker has accepted
// it, queued before any of its reports.

import type { RunMeta } from '../../core/files/runFile.js';
import { STOP_GRACE_MS, type TrainClient } from '../../workers/client.js';
import { refreshRuns } from '../runs/library.js';
import { write } from '../runs/runSaver.js';
import * as db from '../runs/runsDb.js';
import { presetEdited } from '../store/configSlice.js';
import { useApp } from '../store/index.js';
import { baseFor } from './baseFor.js';
import type { ControllerState } from './state.js';

export interface RunActions {
  /** Starts a new run from the current setup (paused: ready for Step). */
  startRun(paused?: boolean): Promise<void>;
  pauseRun(): Promise<void>;
  resumeRun(): Promise<void>;
  /** One iteration; starts a paused run first when none is loaded. */
  stepRun(): Promise<void>;
  stopRun(): Promise<void>;
  /** Drops the current run (kept as stopped when it had not ended) and clears the charts. */
  resetRun(): Promise<void>;
  /** Continues a run a closed or reloaded tab interrupted, from its last stored checkpoint. */
  resumeInterrupted(runId: string): Promise<void>;
}

/**
 * Resumes the stored run `runId` from its checkpoint at iteration k: the stored rows, events and
 * samples from k on are dropped (the run writes them again), the page shows the rest, and the
 * train worker starts from the checkpoint's weights with the rows before k replayed into its
 * detector; with the checkpoint's training state (Adam's moments, the random streams, the counters)
 * the rest of the run is the one the tab would have written (core/rl/trainer.ts resumeAt).
 */
async function doResumeInterrupted(state: ControllerState, c: TrainClient, runId: string): Promise<void> {
  const s = useApp.getState();
  if (s.sweepProgress) throw new Error('a sweep is running in the train worker: wait for it or stop it');
  const data = await db.loadRun(runId);
  if (!data) throw new Error('the interrupted run is no longer stored');
  const cp = data.checkpoint;
  if (!cp)
    throw new Error(`“${data.meta.name}” has no saved checkpoint, so it cannot resume: start it again`);
  const k = cp.iteration;
  const config = data.meta.config;
  await db.rewindRun(runId, k, { status: 'running', iteration: k, updatedAt: Date.now() });
  const base = await baseFor(config);
  s.setInterrupted(null);
  s.setNotice(null);
  s.beginRun(runId, data.meta.name, config.iterations, config.env);
  s.addReports(
    data.rows.filter((r) => r.iteration < k),
    data.events.filter((e) => e.iteration < k),
    data.samples.filter((x) => x.iteration < k),
  );
  s.setProgress(k, config.iterations, 'loading');
  state.lastStoredSample = Number.NEGATIVE_INFINITY;
  state.savedStatus = 'running';
  void refreshRuns();
  const rows = data.rows.filter((r) => r.iteration < k);
  const { info, report } = await c.start(runId, config, base.choice, false, {
    iteration: k,
    manifest: cp.manifest,
    blob: cp.blob,
    rows,
  });
  useApp.getState().setStartInfo(info);
  useApp.getState().setBackendReady(report);
}

async function doStart(state: ControllerState, c: TrainClient, paused: boolean): Promise<void> {
  const s = useApp.getState();
  if (s.configErrors.length > 0) throw new Error('fix the setup first');
  if (!s.baseModelsReady) throw new Error('the base models are still loading: try again in a moment');
  if (s.sweepProgress) throw new Error('a sweep is running in the train worker: wait for it or stop it');
  if (s.fanoutRunning) throw new Error('seeds are running side by side: wait for them to finish');
  const config = s.config;
  const runId = `run-${crypto.randomUUID()}`;
  // The preset (marked when edited) tells runs of different presets apart in the run list.
  const preset = s.preset ? `${s.preset}${presetEdited(s.edits) ? ' (edited)' : ''} · ` : '';
  const name = `${preset}${config.algorithm} · ${config.env.replace(/^minigrid\//, '')} · seed ${config.seed}`;
  // A new start clears what the last one said.
  s.setNotice(null);
  const base = await baseFor(config);
  s.beginRun(runId, name, config.iterations, config.env);
  state.lastStoredSample = Number.NEGATIVE_INFINITY;
  state.savedStatus = paused ? 'paused' : 'running';
  // Stored before the worker starts, so every report it sends finds its record.
  const meta: RunMeta = {
    id: runId,
    name,
    createdAt: Date.now(),
    updatedAt: Date.now(),
    status: state.savedStatus,
    config,
    iteration: 0,
    summary: null,
    base: {
      id: base.choice.kind === 'fresh' ? 'fresh' : base.label,
      label: base.label,
      untrained: base.untrained,
    },
    backend: null,
    hasCheckpoint: false,
  };
  write(() => db.putRun(meta));
  void refreshRuns();
  let started: Awaited<ReturnType<TrainClient['start']>>;
  try {
    started = await c.start(runId, config, base.choice, paused);
  } catch (err) {
    // A run that never had an iteration is not kept: the transport shows why it failed.
    useApp.getState().failRun(`the run could not start: ${(err as Error).message}`);
    write(() => db.deleteRun(runId));
    void refreshRuns();
    return;
  }
  const { info, report } = started;
  useApp.getState().setStartInfo(info);
  useApp.getState().setBackendReady(report);
  write(() =>
    db.patchRun(runId, {
      backend: report.backend,
      base: { id: info.baseId, label: info.baseLabel, untrained: info.untrained },
    }),
  );
}

/** The lifecycle actions of a controller whose client and saved status are in `state`. */
export function runActions(state: ControllerState): RunActions {
  const guarded = async (fn: (c: TrainClient) => Promise<void>): Promise<void> => {
    const s = useApp.getState();
    const client = state.client;
    if (!client || s.busy) return;
    s.setBusy(true);
    try {
      await fn(client);
    } catch (err) {
      useApp.getState().setNotice({ kind: 'error', text: (err as Error).message });
    } finally {
      useApp.getState().setBusy(false);
    }
  };
  return {
    startRun: (paused = false) => guarded((c) => doStart(state, c, paused)),
    resumeInterrupted: (runId) => guarded((c) => doResumeInterrupted(state, c, runId)),
    pauseRun: () => guarded((c) => c.pause()),
    resumeRun: () =>
      guarded(async (c) => {
        useApp.getState().setRunStatus('running');
        await c.resume();
      }),
    stepRun: () =>
      guarded(async (c) => {
        const st = useApp.getState().runStatus;
        if (st === 'idle' || st === 'finished' || st === 'failed') await doStart(state, c, true);
        await c.stepOne();
      }),
    stopRun: () =>
      guarded(async (c) => {
        useApp.getState().setRunStatus('stopping');
        if ((await c.stop()) === 'forced')
          useApp.getState().setNotice({
            kind: 'info',
            text: `The iteration in flight did not end within ${STOP_GRACE_MS / 1000} s (compiling GPU kernels on a software adapter takes minutes), so the run was stopped by restarting the train worker: its rows up to the last finished iteration and its last checkpoint are kept.`,
          });
      }),
    resetRun: () =>
      guarded(async (c) => {
        const { runId, runStatus } = useApp.getState();
        await c.reset();
        useApp.getState().setNotice(null);
        // A run dropped mid-way is kept, as stopped (its last checkpoint is the periodic one).
        if (runId && runStatus !== 'finished' && runStatus !== 'failed')
          write(() => db.patchRun(runId, { status: 'stopped' }));
        useApp.getState().clearRun();
        void refreshRuns();
      }),
  };
}
