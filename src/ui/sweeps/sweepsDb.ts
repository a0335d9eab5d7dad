// Sweeps in IndexedDB (their own database, beside the runs'): one record per sweep holding its
// axes, seeds and every finished run's config, metric rows, events and summary — small for
// the tiny runs a browser sweep makes. Saved after each run, so a reload keeps what finished.
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { SweepRecord } from '../store/sweepSlice.js';

interface SweepsSchema extends DBSchema {
  sweeps: { key: string; value: SweepRecord };
}

let dbPromise: Promise<IDBPDatabase<SweepsSchema>> | null = null;

function db(): Promise<IDBPDatabase<SweepsSchema>> {
  dbPromise ??= openDB<SweepsSchema>('starpo-sweeps', 1, {
    upgrade(d) {
      d.createObjectStore('sweeps', { keyPath: 'id' });
    },
  });
  return dbPromise;
}

/** Every stored sweep, newest first; sweeps a closed tab left running are marked interrupted. */
export async function listSweeps(): Promise<SweepRecord[]> {
  const all = await (await db()).getAll('sweeps');
  return all.sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * `name`, or `name (2)`, `name (3)`… — the first that no stored sweep has, so two sweeps (or two
 * seed groups) of the same setup can be told apart in the list.
 */
export function uniqueSweepName(name: string, taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has(name)) return name;
  for (let k = 2; ; k++) if (!used.has(`${name} (${k})`)) return `${name} (${k})`;
}

export async function putSweep(s: SweepRecord): Promise<void> {
  await (await db()).put('sweeps', s);
}

export async function deleteSweep(id: string): Promise<void> {
  await (await db()).delete('sweeps', id);
}

/** Marks sweeps left 'running' (tab closed mid-sweep) as interrupted, keeping their runs. */
export async function markSweepsInterrupted(): Promise<void> {
  const d = await db();
  const tx = d.transaction('sweeps', 'readwrite');
  for (const s of await tx.store.getAll())
    if (s.status === 'running') await tx.store.put({ ...s, status: 'interrupted' });
  await tx.done;
}
