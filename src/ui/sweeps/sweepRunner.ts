// Runs a planned sweep in the train worker, one run after another. Sequential on purpose: the
// worker holds one tfjs backend and one run at a time (workers/runController.ts), the WASM
// backend there is single-threaded, and the env workers already use the spare cores — two runs
// at once would only time-slice the same cores (and on WebGPU share one device queue). Each
// run's reports are collected by its run id (the main controller ignores ids it did not start);
// its result is saved to IndexedDB as soon as it finishes, so a cancelled or reloaded sweep
// keeps what completed, and each finished run also lands in the Runs tab. A main-page run cannot start while a sweep runs (controller/runActions.ts).

import { summaryFile as coreSummaryFile } from '../../core/files/summaryFile.js';
import type { RunSummaryFile, SweepAxis, SweepRunFiles } from '../../core/files/sweepBundle.js';
import type { RunSummary } from '../../core/metrics/detector.js';
import type { PlannedRun } from '../../core/sweepPlan.js';
import type { TrainClient } from '../../workers/client.js';
import { useApp } from '../store/index.js';
import type { SweepRecord } from '../store/sweepSlice.js';
import { runToEnd } from './runToEnd.js';
import { listSweeps, putSweep, uniqueSweepName } from './sweepsDb.js';

/** A sweep's cancel state, one per controller (controller/state.ts), never module state. */
export interface SweepControl {
  cancelled: boolean;
  /** Rejects the run in flight (set while one runs). */
  abortCurrent: ((e: Error) => void) | null;
}

export function sweepControl(): SweepControl {
  return { cancelled: false, abortCurrent: null };
}

/** The CLI summary.json shape of a finished browser run. */
export function summaryFile(
  plan: PlannedRun,
  s: RunSummary,
  rows: number,
  wallSeconds: number,
  backend: string,
  base: string,
): RunSummaryFile {
  return coreSummaryFile(plan.config, s, { iterations: rows, wallSeconds, backend, base });
}

/** Reloads the stored sweeps into the store. */
export async function refreshSweeps(): Promise<void> {
  useApp.getState().setSweeps({ sweeps: await listSweeps() });
}

async function runOne(
  control: SweepControl,
  c: TrainClient | null,
  plan: PlannedRun,
  runId: string,
  sweepName: string,
): Promise<SweepRunFiles> {
  if (!c) throw new Error('the train worker is not ready');
  // Each finished sweep run is also a run in the Runs tab, to open, overlay, compare or export.
  const { files } = await runToEnd(c, {
    runId,
    name: `${sweepName} · ${plan.path}`,
    config: plan.config,
    path: plan.path,
    preset: plan.preset,
    onProgress: (iteration) => {
      const p = useApp.getState().sweepProgress;
      if (p) useApp.getState().setSweeps({ sweepProgress: { ...p, iteration } });
    },
    onAbortable: (abort) => {
      control.abortCurrent = abort;
    },
  });
  return files;
}

/** Runs the sweep to the end (or until cancelled), saving after every run; returns its id. */
export async function runSweep(
  control: SweepControl,
  client: TrainClient | null,
  name: string,
  axes: SweepAxis[],
  seeds: number[],
  plan: PlannedRun[],
): Promise<string> {
  const s = useApp.getState();
  if (s.sweepProgress) throw new Error('a sweep is already running');
  const st = s.runStatus;
  if (st === 'running' || st === 'paused' || st === 'starting' || st === 'stopping')
    throw new Error('stop the current run first: the train worker runs one thing at a time');
  control.cancelled = false;
  const record: SweepRecord = {
    id: `sweep-${crypto.randomUUID()}`,
    name: uniqueSweepName(
      name,
      (await listSweeps()).map((x) => x.name),
    ),
    createdAt: Date.now(),
    status: 'running',
    axes,
    seeds,
    planned: plan.length,
    runs: [],
  };
  await putSweep(record);
  s.setSweeps({
    selectedSweep: record.id,
    sweepProgress: { sweepId: record.id, done: 0, planned: plan.length, current: '', iteration: 0 },
  });
  await refreshSweeps();
  try {
    for (const [i, p] of plan.entries()) {
      if (control.cancelled) break;
      useApp.getState().setSweeps({
        sweepProgress: { sweepId: record.id, done: i, planned: plan.length, current: p.path, iteration: 0 },
      });
      record.runs.push(await runOne(control, client, p, `${record.id}:${i}`, name));
      await putSweep(record);
      await refreshSweeps();
    }
    record.status = control.cancelled ? 'stopped' : 'finished';
  } catch (err) {
    record.status = 'stopped';
    if (!control.cancelled) {
      record.reason = `stopped at run ${record.runs.length + 1} of ${plan.length}: ${(err as Error).message}`;
      useApp.getState().setNotice({ kind: 'error', text: `The sweep ${record.reason}` });
    }
  } finally {
    await putSweep(record);
    useApp.getState().setSweeps({ sweepProgress: null });
    await refreshSweeps();
  }
  return record.id;
}

/** Stops the sweep after dropping the run in flight. */
export async function cancelSweep(control: SweepControl, client: TrainClient | null): Promise<void> {
  control.cancelled = true;
  await client?.reset();
  control.abortCurrent?.(new Error('cancelled'));
}
