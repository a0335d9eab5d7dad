// What a controller keeps between calls: one object per controller instance (App makes one per
// page), never module state, so a second instance — a test, StrictMode's remount — starts clean.
import type { RunStatus } from '../../core/files/runFile.js';
import type { TrainClient } from '../../workers/client.js';
import { type SweepControl, sweepControl } from '../sweeps/sweepRunner.js';

export interface ControllerState {
  /** The train worker's client while the controller is started. */
  client: TrainClient | null;
  /** The run status last written to IndexedDB, so progress reports patch the record only on a change. */
  savedStatus: RunStatus | '';
  /** The iteration of the run's last stored sample (−∞ before its first): samples are thinned to ~200. */
  lastStoredSample: number;
  /** The in-browser sweep's cancel state. */
  sweep: SweepControl;
}

export function controllerState(): ControllerState {
  return { client: null, savedStatus: '', lastStoredSample: Number.NEGATIVE_INFINITY, sweep: sweepControl() };
}
