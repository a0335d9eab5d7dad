// The database upgrade runner: steps run in order from the stored version up; a failing step
// aborts the upgrade transaction (so the browser keeps the old data) and later steps do not
// run; the real v1→2 step stamps every run record once and is a no-op when run again.
import type { IDBPDatabase } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import {
  blockedText,
  DB_VERSION,
  MigrationError,
  type MigrationStep,
  newerDatabaseText,
  type RunsSchema,
  runMigrations,
  STEPS,
} from './migrations.js';

const noDb = {} as IDBPDatabase<RunsSchema>;

function recording(log: number[], fail?: number): MigrationStep[] {
  return [1, 2, 3].map((to) => ({
    to,
    what: `step ${to}`,
    async run() {
      await Promise.resolve();
      if (to === fail) throw new DOMException('disk is full', 'QuotaExceededError');
      log.push(to);
    },
  }));
}

/** A versionchange transaction over a runs store held in an array. */
function fakeUpgrade(records: Record<string, unknown>[]) {
  const indexes = new Set<string>();
  const updated: unknown[] = [];
  const cursorAt = (i: number): unknown =>
    i >= records.length
      ? null
      : {
          value: records[i],
          update: async (v: Record<string, unknown>) => {
            records[i] = v;
            updated.push(v.id);
          },
          continue: async () => cursorAt(i + 1),
        };
  const store = {
    indexNames: { contains: (n: string) => indexes.has(n) },
    createIndex: (n: string) => void indexes.add(n),
    openCursor: async () => cursorAt(0),
  };
  const tx = { objectStore: () => store, abort: vi.fn() };
  return { tx: tx as unknown as Parameters<typeof runMigrations>[3], abort: tx.abort, indexes, updated };
}

describe('database migrations', () => {
  it('has one step per version, ending at DB_VERSION', () => {
    expect(STEPS.map((s) => s.to)).toEqual(Array.from({ length: DB_VERSION }, (_, i) => i + 1));
  });

  it('runs the steps above the stored version, in order', async () => {
    const tx = { abort: vi.fn() };
    const fresh: number[] = [];
    await runMigrations(noDb, 0, 3, tx, recording(fresh));
    expect(fresh).toEqual([1, 2, 3]);
    const fromOne: number[] = [];
    await runMigrations(noDb, 1, 3, tx, recording(fromOne));
    expect(fromOne).toEqual([2, 3]);
    const toTwo: number[] = [];
    await runMigrations(noDb, 0, 2, tx, recording(toTwo));
    expect(toTwo).toEqual([1, 2]);
    expect(tx.abort).not.toHaveBeenCalled();
  });

  it('aborts the transaction on a failing step and says nothing was changed', async () => {
    const tx = { abort: vi.fn() };
    const log: number[] = [];
    const err = await runMigrations(noDb, 1, 3, tx, recording(log, 2)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect(tx.abort).toHaveBeenCalledTimes(1);
    expect(log).toEqual([]); // step 3 never ran
    expect((err as Error).message).toBe(
      'Stored runs could not be upgraded from schema version 1 to 3: the step to version 2 (step 2) ' +
        'failed (QuotaExceededError: disk is full). Nothing was changed — your runs are kept as they ' +
        'were (version 1). Reload to try again.',
    );
    // A transaction the browser already aborted still gives the same error.
    const aborted = {
      abort: vi.fn(() => {
        throw new DOMException('already aborted', 'InvalidStateError');
      }),
    };
    await expect(runMigrations(noDb, 0, 3, aborted, recording([], 1))).rejects.toThrow(/version 0 to 3/);
  });

  it('v1→2 stamps each run record once, adds the createdAt index, and is idempotent', async () => {
    const records: Record<string, unknown>[] = [
      { id: 'a', createdAt: 5 },
      { id: 'b', createdAt: 9, schemaVersion: 2 },
      { id: 'c', createdAt: 7, name: 'kept' },
    ];
    const up = fakeUpgrade(records);
    await runMigrations(noDb, 1, 2, up.tx);
    expect(up.indexes).toEqual(new Set(['createdAt']));
    expect(up.updated).toEqual(['a', 'c']);
    expect(records).toEqual([
      { id: 'a', createdAt: 5, schemaVersion: 2 },
      { id: 'b', createdAt: 9, schemaVersion: 2 },
      { id: 'c', createdAt: 7, name: 'kept', schemaVersion: 2 },
    ]);
    await runMigrations(noDb, 1, 2, up.tx);
    expect(up.updated).toEqual(['a', 'c']);
    expect(up.abort).not.toHaveBeenCalled();
  });

  it('tells the user about a newer database and a blocking tab', () => {
    expect(newerDatabaseText(5)).toMatch(/newer playground \(version 5\); this one reads up to version 2/);
    expect(blockedText(1)).toMatch(/schema version 1 to 2.*another tab/);
  });
});
