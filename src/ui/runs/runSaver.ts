// Incremental saving of the current run to IndexedDB (issue 10). Writes go one after another so a
// run's record never races its rows. One `reports` message (rows, events, samples) is saved in
// ONE transaction with the record's iteration count; a batch that
// fails (a full quota) is reported — with what to delete — and kept, to be saved with the next
// one, so the stored run never has a gap. After a worker restart the run is rewound to its
// checkpoint here and in IndexedDB. The write queue is the page's one queue to IndexedDB (as
// runsDb's connection is the page's one connection); what belongs to a run — which samples were
// stored — is the controller's (controller/state.ts).

import type { RunMeta } from '../../core/files/runFile.js';
import type { SampledTrajectory } from '../../core/rl/trainer.js';
import { useApp } from '../store/index.js';
import * as db from './runsDb.js';
import { isQuotaError, saveFailureText } from './storageErrors.js';

type Batch = db.RunBatch & { runId: string };

let writes: Promise<unknown> = Promise.resolve();
// A batch whose save failed, merged into the next attempt.
let unsaved: Batch | null = null;

/** Queues an IndexedDB write; resolves when it (and everything queued before it) is done. */
export function write(fn: () => Promise<unknown>): Promise<unknown> {
  writes = writes.then(fn).catch((err: unknown) => {
    const quota = isQuotaError(err)
      ? ' — storage is full: delete runs you no longer need in the Runs tab (export them first to keep a file)'
      : '';
    useApp
      .getState()
      .setNotice({ kind: 'error', text: `Saving to IndexedDB failed: ${(err as Error).message}${quota}` });
  });
  return writes;
}

/** Resolves when every queued IndexedDB write has finished. */
export function flushWrites(): Promise<unknown> {
  return writes;
}

/**
 * The samples worth storing: about 200 over the planned run (the viewer keeps more in memory),
 * plus every one that carries a cross-scoring matrix, given the iteration of the last one stored
 * (−∞ for a new run); returns them and the new last. Each sample holds its iteration's reasoning
 * snapshot (P × N first turns, a few kB), so a run stores at most about 200 + iterations/MI-every
 * of them: the reasoning panel's memory budget, thinned for long runs.
 */
export function samplesToStore(
  samples: readonly SampledTrajectory[],
  planned: number,
  lastStored: number,
): { kept: SampledTrajectory[]; lastStored: number } {
  const stride = Math.max(1, Math.ceil(planned / 200));
  let last = lastStored;
  const kept = samples.filter((sample) => {
    // An iteration with a cross-scoring matrix (and the base's reasoning) is always kept: those
    // are the few the MI slider and the reasoning panel compare across.
    if (sample.iteration - last < stride && !sample.mi) return false;
    last = sample.iteration;
    return true;
  });
  return { kept, lastStored: last };
}

/** Queues one `reports` batch (rows, events, samples) to be saved in one transaction. */
export function saveReports(runId: string, batch: db.RunBatch): void {
  write(() => saveBatch({ runId, ...batch }));
}

/** Saves a batch (with any earlier unsaved one) in one transaction; on failure keeps it and says so. */
async function saveBatch(next: Batch): Promise<void> {
  const prev = unsaved?.runId === next.runId ? unsaved : null;
  const batch = {
    runId: next.runId,
    rows: [...(prev?.rows ?? []), ...next.rows],
    events: [...(prev?.events ?? []), ...next.events],
    samples: [...(prev?.samples ?? []), ...next.samples],
  };
  const last = batch.rows.at(-1);
  const patch: Partial<RunMeta> = last ? { iteration: last.iteration + 1, updatedAt: Date.now() } : {};
  try {
    await db.commitBatch(batch.runId, batch, patch);
    unsaved = null;
  } catch (error) {
    unsaved = batch;
    const storedRuns = await db.listRuns().catch(() => useApp.getState().storedRuns);
    // The estimate may be slow under load: the write queue waits at most a second for it.
    const usage = await Promise.race([
      navigator.storage?.estimate?.().catch(() => null) ?? null,
      new Promise<null>((r) => setTimeout(() => r(null), 1000)),
    ]);
    const first = batch.rows[0]?.iteration;
    useApp.getState().setNotice({
      kind: 'error',
      text: saveFailureText({
        error,
        unsaved: batch.rows.map((r) => r.iteration),
        savedIterations: first ?? storedRuns.find((r) => r.id === batch.runId)?.iteration ?? 0,
        runId: batch.runId,
        storedRuns,
        usage,
      }),
    });
  }
}

/**
 * The run continues from `iteration` after a worker restart: drop what came after, stored too.
 * The kept-back batch is trimmed when the rewind's turn in the write queue comes, not before: a
 * batch that was already queued when the worker died may still fail (a full quota) and be kept
 * back with rows from after `iteration`, which must not come back with the next save.
 */
export function rewindSaved(id: string, iteration: number, backend: string): void {
  const keep = (b: Batch): Batch => ({
    runId: b.runId,
    rows: b.rows.filter((r) => r.iteration < iteration),
    events: b.events.filter((e) => e.iteration < iteration),
    samples: b.samples.filter((x) => x.iteration < iteration),
  });
  write(() => {
    if (unsaved?.runId === id) unsaved = keep(unsaved);
    // The record counts what is stored: not the kept-back rows before `iteration`, if any.
    const stored = Math.min(
      iteration,
      unsaved?.runId === id ? (unsaved.rows[0]?.iteration ?? iteration) : iteration,
    );
    return db.rewindRun(id, iteration, { iteration: stored, backend });
  });
}
