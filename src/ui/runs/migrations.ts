// Schema versions of the runs database (IndexedDB) and the ordered steps that bring an older one
// up to date. The database is opened at DB_VERSION; when the browser holds an older one it runs
// `upgrade(db, oldVersion, newVersion, tx)`, and `runMigrations` runs every step whose `to` lies in
// (oldVersion, newVersion], in order, inside that one versionchange transaction. A step that
// fails aborts the transaction, so the browser keeps the database exactly as it was (old version,
// old stores, old records) and the open fails with a MigrationError saying so — never a wipe.
//
// Adding the next step (say version 3):
//   1. Append `{ to: 3, what: '…', run }` to STEPS and set DB_VERSION = 3 (a test checks they agree).
//   2. In `run`, use only `db` and `tx` (no other transaction can run during an upgrade), await
//      every request, and let errors throw: swallowing one would commit a half-done upgrade.
//   3. Make it idempotent and cheap: check before creating a store or index; skip records that
//      already have the new shape; touch only the stores that change (rows can be millions).
//   4. If it changes the shape of run records, stamp them `schemaVersion: 3` and update RunsSchema.
//   5. Never edit a released step: a browser that already ran it will not run it again.
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { RunMeta, StoredCheckpoint } from '../../core/files/runFile.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { SampledTrajectory, TrainerEvent } from '../../core/rl/trainer.js';

/** The database's name in the browser's IndexedDB. */
export const DB_NAME = 'starpo-playground';

/** The schema version this playground opens the database at (the last step's `to`). */
export const DB_VERSION = 2;

/** The stores as of DB_VERSION. */
export interface RunsSchema extends DBSchema {
  runs: { key: string; value: RunMeta; indexes: { createdAt: number } };
  rows: { key: [string, number]; value: { runId: string; iteration: number; row: MetricRow } };
  events: { key: number; value: { runId: string; event: TrainerEvent }; indexes: { runId: string } };
  samples: { key: [string, number]; value: { runId: string; iteration: number; sample: SampledTrajectory } };
  checkpoints: { key: string; value: { runId: string } & StoredCheckpoint };
}

type Db = IDBPDatabase<RunsSchema>;
type UpgradeTx = IDBPTransaction<RunsSchema, StoreNames<RunsSchema>[], 'versionchange'>;

/** One upgrade step: from version `to - 1` to `to`. */
export interface MigrationStep {
  to: number;
  /** What it does, in a few words (shown if it fails). */
  what: string;
  run(db: Db, tx: UpgradeTx): void | Promise<void>;
}

/** Every step, oldest first; step i upgrades version i to i + 1. */
export const STEPS: readonly MigrationStep[] = [
  {
    to: 1,
    what: 'create the stores',
    run(db) {
      db.createObjectStore('runs', { keyPath: 'id' });
      db.createObjectStore('rows', { keyPath: ['runId', 'iteration'] });
      db.createObjectStore('events', { autoIncrement: true }).createIndex('runId', 'runId');
      db.createObjectStore('samples', { keyPath: ['runId', 'iteration'] });
      db.createObjectStore('checkpoints', { keyPath: 'runId' });
    },
  },
  {
    to: 2,
    what: 'stamp run records with schemaVersion and index runs by creation time',
    async run(_db, tx) {
      const runs = tx.objectStore('runs');
      if (!runs.indexNames.contains('createdAt')) runs.createIndex('createdAt', 'createdAt');
      let cursor = await runs.openCursor();
      while (cursor) {
        if ((cursor.value.schemaVersion ?? 1) < 2) await cursor.update({ ...cursor.value, schemaVersion: 2 });
        cursor = await cursor.continue();
      }
    },
  },
];

/** An upgrade that failed and was rolled back; its message is meant for the user. */
export class MigrationError extends Error {
  override name = 'MigrationError';
  constructor(
    readonly from: number,
    readonly to: number,
    readonly step: MigrationStep,
    readonly error: unknown,
  ) {
    const e = error as { name?: string; message?: string } | null;
    super(
      `Stored runs could not be upgraded from schema version ${from} to ${to}: the step to version ` +
        `${step.to} (${step.what}) failed (${e?.name ?? 'Error'}: ${e?.message ?? String(error)}). ` +
        `Nothing was changed — your runs are kept as they were (version ${from}). Reload to try again.`,
    );
  }
}

/**
 * Runs the steps from `oldVersion` up to `newVersion` in order inside the upgrade transaction.
 * On the first failure it aborts `tx` (the browser then restores the database as it was) and
 * rejects with a MigrationError; later steps do not run.
 */
export async function runMigrations(
  db: Db,
  oldVersion: number,
  newVersion: number,
  tx: Pick<UpgradeTx, 'abort'>,
  steps: readonly MigrationStep[] = STEPS,
): Promise<void> {
  for (const step of steps) {
    if (step.to <= oldVersion || step.to > newVersion) continue;
    try {
      await step.run(db, tx as UpgradeTx);
    } catch (err) {
      try {
        tx.abort();
      } catch {
        // already aborted by the browser
      }
      throw new MigrationError(oldVersion, newVersion, step, err);
    }
  }
}

/** The message when the stored database is newer than this playground reads. */
export function newerDatabaseText(stored: number | null, reads: number = DB_VERSION): string {
  const which = stored === null ? '' : ` (version ${stored})`;
  return `Stored runs were made by a newer playground${which}; this one reads up to version ${reads}. Nothing was changed — reload to get the newer playground.`;
}

/** The message when another open tab keeps the old database from being upgraded. */
export function blockedText(from: number, to: number = DB_VERSION): string {
  return `Stored runs need an upgrade (schema version ${from} to ${to}), but another tab of the playground still has them open. Close the other tabs and reload; nothing was changed.`;
}
