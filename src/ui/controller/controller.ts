// The glue between the store, the train worker and IndexedDB (xyflow + zustand style: the store
// holds plain data; a Controller holds the TrainClient and turns user actions into requests and
// run reports into store updates and saves). App makes one per page and hands it to the views
// through ControllerContext (context.ts); what it keeps between calls is in its own state
// object (state.ts). The parts: run lifecycle (runActions.ts), report routing (reports.ts), live
// changes (liveChanges.ts), the base model (baseFor.ts), test fault hooks (faultHooks.ts); saving
// is runs/runSaver.ts and the stored runs' actions runs/library.ts. Nothing here renders.
import type { SweepAxis } from '../../core/files/sweepBundle.js';
import { parseModelIndex } from '../../core/model/modelIndex.js';
import type { PlannedRun } from '../../core/sweepPlan.js';
import { TrainClient } from '../../workers/client.js';
import { refreshRuns } from '../runs/library.js';
import * as db from '../runs/runsDb.js';
import { useApp } from '../store/index.js';
import { cancelSweep, runSweep } from '../sweeps/sweepRunner.js';
import { installFaultHooks } from './faultHooks.js';
import { liveChanges } from './liveChanges.js';
import { routeReport } from './reports.js';
import { type RunActions, runActions } from './runActions.js';
import { type ControllerState, controllerState } from './state.js';

export interface Controller extends RunActions {
  /**
   * Starts the train worker, marks runs a closed tab left behind, loads the run list and the
   * models index; returns the function that stops the worker again.
   */
  start(): () => void;
  /** The train worker's client while started (in-browser sweeps and the self-check use it). */
  trainClient(): TrainClient | null;
  /** Sends a live setting to the running trainer (debounced while typing). */
  applyLive(key: string, value: unknown): void;
  /** Runs a planned sweep in the train worker, one run after another; resolves to its id. */
  runSweep(name: string, axes: SweepAxis[], seeds: number[], plan: PlannedRun[]): Promise<string>;
  /** Stops the running sweep after dropping its run in flight. */
  cancelSweep(): Promise<void>;
}

function loadModelsIndex(): void {
  fetch(new URL('models/index.json', document.baseURI))
    .then((r) => (r.ok ? r.json() : []))
    .then((list: unknown) => useApp.getState().setBaseModels(parseModelIndex(list)))
    .catch((err: Error) => {
      useApp.getState().setBaseModels([]);
      useApp.getState().setNotice({
        kind: 'error',
        text: `The base models could not be read (runs start untrained): ${err.message}`,
      });
    });
}

function start(state: ControllerState, stopLive: () => void): () => void {
  const c = new TrainClient();
  state.client = c;
  const off = c.onReport((r) => routeReport(state, r));
  const offStartup = c.onStartup((s) => useApp.getState().setStartupStatus(s));
  if (new URLSearchParams(window.location.search).has('test-faults')) installFaultHooks(c);
  c.init(useApp.getState().config.backend, useApp.getState().config.modelSize).then(
    (report) => useApp.getState().setBackendReady(report),
    (err: Error) => {
      // A client disposed before its backend answered (an unmount) has no backend to report.
      if (state.client === c) useApp.getState().setBackendFailed(err.message);
    },
  );
  void db
    .markInterrupted()
    .then(async (runs) => {
      // Say so on load: the newest run the last tab left going, and where it can resume from.
      const last = [...runs].sort((a, b) => b.updatedAt - a.updatedAt)[0];
      if (last) {
        const cp = await db.getCheckpoint(last.id);
        // The iteration it reached: its stored rows (the run record is patched less often).
        const rows = await db.loadRows(last.id);
        useApp.getState().setInterrupted({
          id: last.id,
          name: last.name,
          iteration: Math.max(last.iteration, (rows.at(-1)?.iteration ?? -1) + 1),
          checkpointAt: cp ? cp.iteration : null,
          // Checkpoints saved before the trainer's state was (no `training`) resume inexactly.
          exact: !!cp && typeof cp.manifest === 'object' && cp.manifest !== null && 'training' in cp.manifest,
        });
      }
      await refreshRuns();
    })
    .catch((err: Error) => useApp.getState().setNotice({ kind: 'error', text: `IndexedDB: ${err.message}` }));
  loadModelsIndex();
  return () => {
    off();
    offStartup();
    stopLive();
    c.dispose();
    if (state.client === c) state.client = null;
  };
}

/** A controller, not yet started (no worker, no side effects until `start()`). */
export function createController(): Controller {
  const state = controllerState();
  const live = liveChanges((changes) => state.client?.setLive(changes));
  return {
    ...runActions(state),
    start: () => start(state, live.cancel),
    trainClient: () => state.client,
    applyLive: live.apply,
    runSweep: (name, axes, seeds, plan) => runSweep(state.sweep, state.client, name, axes, seeds, plan),
    cancelSweep: () => cancelSweep(state.sweep, state.client),
  };
}
