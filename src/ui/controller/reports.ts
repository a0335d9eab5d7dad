// Reports of the train worker routed to the store and to IndexedDB: one exhaustive switch over
// the report types (workers/client.ts RunReport). A `reports` batch is shown and saved whole, in
// one transaction (runs/runSaver.ts); a worker restart rewinds the run to its checkpoint in both;
// the run's end is shown only once everything before it is saved.
import type { RunReport } from '../../workers/client.js';
import { assertNever } from '../../workers/protocol.js';
import { haltEvent } from '../runs/haltEvent.js';
import { refreshRuns } from '../runs/library.js';
import { flushWrites, rewindSaved, samplesToStore, saveReports, write } from '../runs/runSaver.js';
import * as db from '../runs/runsDb.js';
import { useApp } from '../store/index.js';
import type { ControllerState } from './state.js';

/** A worker restart (any run, or none): the recovery banner, and the run rewound to its checkpoint. */
function routeRecovery(
  state: ControllerState,
  r: Extract<RunReport, { type: 'recovering' | 'recovered' }>,
): void {
  const s = useApp.getState();
  if (r.runId !== null && r.runId !== s.runId) return;
  const hadRun = r.runId !== null;
  if (r.type === 'recovering') {
    s.setRecovery({
      state: 'recovering',
      fault: r.fault,
      message: r.message,
      iteration: s.iteration,
      backend: null,
      hadRun,
    });
    return;
  }
  s.setBackendReady(r.report);
  s.setRecovery({
    state: 'recovered',
    fault: r.fault,
    message: r.message,
    iteration: r.iteration,
    backend: r.report.backend,
    hadRun,
  });
  if (r.runId !== null) {
    s.rewindRun(r.iteration);
    state.lastStoredSample = Math.min(state.lastStoredSample, r.iteration - 1);
    rewindSaved(r.runId, r.iteration, r.report.backend);
  }
}

/** Routes one report of the current run; reports of other runs (reset, or a sweep's) are ignored. */
export function routeReport(state: ControllerState, r: RunReport): void {
  if (r.type === 'recovering' || r.type === 'recovered') {
    routeRecovery(state, r);
    return;
  }
  const s = useApp.getState();
  if (r.runId !== s.runId) return; // a late report of a run that was reset
  const id = r.runId;
  switch (r.type) {
    case 'reports': {
      // One batch from the worker: shown, and stored in one transaction.
      s.addReports(r.rows, r.events, r.samples);
      const { kept, lastStored } = samplesToStore(r.samples, s.planned, state.lastStoredSample);
      state.lastStoredSample = lastStored;
      saveReports(id, { rows: r.rows, events: r.events, samples: kept });
      return;
    }
    case 'progress': {
      // 'finished' is shown once the run's end is saved (see below).
      if (r.phase === 'finished') return;
      s.setProgress(r.iteration, r.planned, r.phase, r.compiled);
      const status = r.phase === 'paused' ? 'paused' : 'running';
      if (status !== state.savedStatus) {
        state.savedStatus = status;
        write(() => db.patchRun(id, { status }));
      }
      return;
    }
    case 'notice':
      s.setRunNotice(r.message);
      return;
    case 'checkpoint':
      write(() => db.putCheckpoint(id, { manifest: r.manifest, blob: r.blob, iteration: r.iteration }));
      write(() => db.patchRun(id, { hasCheckpoint: true }));
      return;
    case 'finished':
      write(() =>
        db.patchRun(id, { status: r.reason === 'completed' ? 'finished' : 'stopped', summary: r.summary }),
      );
      // Shown as finished once everything before it is saved, so a reload right after finds
      // the run stored as ended.
      void flushWrites().then(() => {
        if (useApp.getState().runId === id) useApp.getState().finishRun(r.summary);
        void refreshRuns();
      });
      return;
    case 'runError': {
      // Repeated NaN/Inf iterations: the fault banner explains and suggests a live change, then
      // Resume. Any other error ends the run as failed, its saved rows and checkpoint kept.
      const halted = haltEvent(s.events) !== null;
      if (halted) s.setRunStatus('paused');
      else s.failRun(r.message);
      state.savedStatus = halted ? 'paused' : 'failed';
      write(() => db.patchRun(id, { status: halted ? 'paused' : 'failed' }));
      void flushWrites().then(refreshRuns);
      return;
    }
    default:
      assertNever(r);
  }
}
