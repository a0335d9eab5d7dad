// Runs in IndexedDB (via idb), saved incrementally while they train: the run record, metric
// rows, events, a thinned set of sampled trajectories, and the latest checkpoint. A run left
// "running" or "paused" by a closed tab is marked interrupted at the next load, data intact.
// Imports write every store in one transaction, so a failure leaves nothing half-stored; so does
// each batch of a training run (rows, events, samples and the run's iteration count together),
// so a tab closed mid-write or a full disk leaves the run readable up to its last whole batch.
// The database is opened at DB_VERSION; an older one is upgraded by migrations.ts (all or
// nothing), and a failed upgrade, a newer database or a blocking tab each fail the open with a
// message for the user — the stored runs are never wiped.
import { type IDBPDatabase, openDB as idbOpen } from 'idb';
import type { RunData, RunMeta, StoredCheckpoint } from '../../core/files/runFile.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { SampledTrajectory, TrainerEvent } from '../../core/rl/trainer.js';
import {
  blockedText,
  DB_NAME,
  DB_VERSION,
  newerDatabaseText,
  type RunsSchema,
  runMigrations,
} from './migrations.js';

let dbPromise: Promise<IDBPDatabase<RunsSchema>> | null = null;

/** The version of the stored database without upgrading it (null when it cannot be read). */
async function storedVersion(): Promise<number | null> {
  try {
    const d = await idbOpen(DB_NAME);
    d.close();
    return d.version;
  } catch {
    return null;
  }
}

/** Opens (and if need be upgrades) the database; rejects with a message for the user. */
function open(): Promise<IDBPDatabase<RunsSchema>> {
  return new Promise((resolve, reject) => {
    let failure: unknown = null;
    let gaveUp = false;
    idbOpen<RunsSchema>(DB_NAME, DB_VERSION, {
      upgrade(d, oldVersion, newVersion, tx) {
        runMigrations(d, oldVersion, newVersion ?? DB_VERSION, tx).catch((err) => {
          failure = err;
        });
      },
      blocked(currentVersion) {
        gaveUp = true;
        reject(new Error(blockedText(currentVersion)));
      },
      // A newer playground in another tab wants to upgrade: let it (this tab reopens on its next call).
      blocking(_current, _next, event) {
        (event.target as IDBDatabase).close();
        dbPromise = null;
      },
      terminated() {
        dbPromise = null;
      },
    }).then(
      (d) => {
        // A step whose error did not abort the upgrade: still refuse to use the result.
        if (gaveUp || failure) d.close();
        if (failure) reject(failure);
        else if (!gaveUp) resolve(d);
      },
      async (err: unknown) => {
        if (failure) return reject(failure);
        if ((err as { name?: unknown } | null)?.name === 'VersionError')
          return reject(new Error(newerDatabaseText(await storedVersion())));
        reject(err);
      },
    );
  });
}

function db(): Promise<IDBPDatabase<RunsSchema>> {
  if (!dbPromise) {
    const p = open();
    dbPromise = p;
    p.catch(() => {
      if (dbPromise === p) dbPromise = null;
    });
  }
  return dbPromise;
}

const runRange = (id: string) =>
  IDBKeyRange.bound([id, Number.NEGATIVE_INFINITY], [id, Number.POSITIVE_INFINITY]);

/** Every stored run, newest first. */
export async function listRuns(): Promise<RunMeta[]> {
  return (await (await db()).getAllFromIndex('runs', 'createdAt')).reverse();
}

/** A run record as stored: stamped with the schema version it has the shape of. */
const stamped = (meta: RunMeta): RunMeta => ({ ...meta, schemaVersion: DB_VERSION });

export async function putRun(meta: RunMeta): Promise<void> {
  await (await db()).put('runs', stamped(meta));
}

/** Changes some fields of a stored run (no-op when it was deleted meanwhile). */
export async function patchRun(id: string, patch: Partial<RunMeta>): Promise<void> {
  const d = await db();
  const tx = d.transaction('runs', 'readwrite');
  const cur = await tx.store.get(id);
  if (cur) await tx.store.put({ ...cur, ...patch, id });
  await tx.done;
}

/** One batch of a training run: what `commitBatch` stores at once. */
export interface RunBatch {
  rows: MetricRow[];
  events: TrainerEvent[];
  samples: SampledTrajectory[];
}

/**
 * Stores a batch and patches the run record in ONE transaction: on any failure (a full quota, a
 * closed tab) none of it is stored, so the record's iteration count never runs ahead of its rows.
 */
export async function commitBatch(runId: string, batch: RunBatch, patch: Partial<RunMeta>): Promise<void> {
  const tx = (await db()).transaction(['runs', 'rows', 'events', 'samples'], 'readwrite');
  const ops: Promise<unknown>[] = [];
  try {
    for (const row of batch.rows)
      ops.push(tx.objectStore('rows').put({ runId, iteration: row.iteration, row }));
    for (const event of batch.events) ops.push(tx.objectStore('events').add({ runId, event }));
    for (const s of batch.samples)
      ops.push(tx.objectStore('samples').put({ runId, iteration: s.iteration, sample: s }));
    const runs = tx.objectStore('runs');
    const cur = await runs.get(runId);
    if (cur) ops.push(runs.put({ ...cur, ...patch, id: runId }));
    await Promise.all([...ops, tx.done]);
  } catch (err) {
    for (const op of ops) op.catch(() => {});
    tx.done.catch(() => {});
    try {
      tx.abort();
    } catch {
      // already finished or aborted by the browser
    }
    throw err;
  }
}

/**
 * Drops a run's rows, samples and events from `iteration` on and patches its record, in one
 * transaction (a run continued from an earlier checkpoint after a fault).
 */
export async function rewindRun(runId: string, iteration: number, patch: Partial<RunMeta>): Promise<void> {
  const d = await db();
  const tx = d.transaction(['runs', 'rows', 'events', 'samples'], 'readwrite');
  const from = IDBKeyRange.bound([runId, iteration], [runId, Number.POSITIVE_INFINITY]);
  await tx.objectStore('rows').delete(from);
  await tx.objectStore('samples').delete(from);
  const events = tx.objectStore('events');
  let cursor = await events.index('runId').openCursor(runId);
  while (cursor) {
    if (cursor.value.event.iteration >= iteration) await cursor.delete();
    cursor = await cursor.continue();
  }
  const runs = tx.objectStore('runs');
  const cur = await runs.get(runId);
  if (cur) await runs.put({ ...cur, ...patch, id: runId });
  await tx.done;
}

export async function putCheckpoint(runId: string, cp: StoredCheckpoint): Promise<void> {
  await (await db()).put('checkpoints', { runId, ...cp });
}

export async function getCheckpoint(runId: string): Promise<StoredCheckpoint | null> {
  const c = await (await db()).get('checkpoints', runId);
  return c ? { manifest: c.manifest, blob: c.blob, iteration: c.iteration } : null;
}

/** The metric rows of a run, by iteration. */
export async function loadRows(runId: string): Promise<MetricRow[]> {
  const all = await (await db()).getAll('rows', runRange(runId));
  return all.map((r) => r.row);
}

/** Everything stored about a run. */
export async function loadRun(runId: string): Promise<RunData | null> {
  const d = await db();
  const meta = await d.get('runs', runId);
  if (!meta) return null;
  const [rows, events, samples, checkpoint] = await Promise.all([
    loadRows(runId),
    d.getAllFromIndex('events', 'runId', runId),
    d.getAll('samples', runRange(runId)),
    getCheckpoint(runId),
  ]);
  return {
    meta,
    rows,
    events: events.map((e) => e.event),
    samples: samples.map((s) => s.sample),
    checkpoint,
  };
}

/** Removes a run and all its data. */
export async function deleteRun(runId: string): Promise<void> {
  const d = await db();
  const tx = d.transaction(['runs', 'rows', 'events', 'samples', 'checkpoints'], 'readwrite');
  await tx.objectStore('runs').delete(runId);
  await tx.objectStore('rows').delete(runRange(runId));
  await tx.objectStore('samples').delete(runRange(runId));
  await tx.objectStore('checkpoints').delete(runId);
  const events = tx.objectStore('events');
  for (const key of await events.index('runId').getAllKeys(runId)) await events.delete(key);
  await tx.done;
}

/** Stores a whole run in one transaction (import). */
export async function storeRun(data: RunData): Promise<void> {
  const d = await db();
  const tx = d.transaction(['runs', 'rows', 'events', 'samples', 'checkpoints'], 'readwrite');
  const id = data.meta.id;
  tx.objectStore('runs').put(stamped(data.meta));
  for (const row of data.rows) tx.objectStore('rows').put({ runId: id, iteration: row.iteration, row });
  for (const event of data.events) tx.objectStore('events').add({ runId: id, event });
  for (const s of data.samples)
    tx.objectStore('samples').put({ runId: id, iteration: s.iteration, sample: s });
  if (data.checkpoint) tx.objectStore('checkpoints').put({ runId: id, ...data.checkpoint });
  await tx.done;
}

/** Marks runs left running or paused (by a closed tab) as interrupted; returns them. */
export async function markInterrupted(except: ReadonlySet<string> = new Set()): Promise<RunMeta[]> {
  const d = await db();
  const tx = d.transaction('runs', 'readwrite');
  const marked: RunMeta[] = [];
  for (const run of await tx.store.getAll()) {
    if ((run.status === 'running' || run.status === 'paused') && !except.has(run.id)) {
      const next = { ...run, status: 'interrupted' as const };
      await tx.store.put(next);
      marked.push(next);
    }
  }
  await tx.done;
  return marked;
}
