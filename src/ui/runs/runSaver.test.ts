// The run saver's bookkeeping across a rewind (issue 10), over an in-memory stand-in for the
// IndexedDB module: a batch that was already queued when the train worker died, and whose save
// then fails on a full quota, must not bring rows from after the checkpoint back into the stored
// run; the stored record never counts a row it does not hold, and once saving works again the
// stored rows are exactly 0..n-1 for a record counting n.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { SampledTrajectory } from '../../core/rl/trainer.js';
import type { RunBatch } from './runsDb.js';

/** What the fake database holds for the one run of these tests. */
const stored = vi.hoisted(() => ({
  rows: new Map<number, MetricRow>(),
  iteration: 0,
  failNext: false,
  reset() {
    this.rows.clear();
    this.iteration = 0;
    this.failNext = false;
  },
}));

vi.mock('./runsDb.js', () => {
  // Each write takes a little while, as IndexedDB does, so a later report can arrive meanwhile.
  const later = () => new Promise((r) => setTimeout(r, 5));
  return {
    async commitBatch(_id: string, batch: RunBatch, patch: { iteration?: number }) {
      await later();
      if (stored.failNext) {
        stored.failNext = false;
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      for (const row of batch.rows) stored.rows.set(row.iteration, row);
      if (patch.iteration !== undefined) stored.iteration = patch.iteration;
    },
    async rewindRun(_id: string, iteration: number, patch: { iteration?: number }) {
      await later();
      for (const it of [...stored.rows.keys()]) if (it >= iteration) stored.rows.delete(it);
      if (patch.iteration !== undefined) stored.iteration = patch.iteration;
    },
    listRuns: async () => [],
  };
});

const { flushWrites, saveReports, rewindSaved, samplesToStore } = await import('./runSaver.js');

const rows = (from: number, to: number, tag = 'first'): MetricRow[] =>
  Array.from({ length: to - from }, (_, i) => ({ iteration: from + i, tag }) as unknown as MetricRow);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const storedIterations = () => [...stored.rows.keys()].sort((a, b) => a - b);
/** Lets the saver queue the batch gathered in this task (its microtask) and start writing it. */
const nextTask = () => new Promise((r) => setTimeout(r, 0));
/** Resolves once the batch gathered in this task and every write before it are done. */
const saved = async () => {
  await nextTask();
  await flushWrites();
};

beforeAll(() => {
  vi.stubGlobal('navigator', {});
});
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  stored.reset();
});

describe('runSaver across a rewind', () => {
  it('drops the rewound rows of a batch that failed to save after the rewind was asked for', async () => {
    saveReports('r1', { rows: rows(0, 3), events: [], samples: [] });
    await saved();
    expect(storedIterations()).toEqual([0, 1, 2]);
    expect(stored.iteration).toBe(3);

    // Rows 3..5 arrive and are being written when the worker dies; the write then hits a full
    // quota. The recovery continues from the checkpoint at 4 (rows 0..3 are held in memory).
    stored.failNext = true;
    saveReports('r1', { rows: rows(3, 6), events: [], samples: [] });
    await nextTask();
    rewindSaved('r1', 4, 'wasm');
    await saved();
    // Row 3 is not stored yet: the record does not count it.
    expect(stored.iteration).toBe(3);
    expect(storedIterations()).toEqual(range(stored.iteration));

    // The resumed run's row 4 arrives; saving works again and takes the kept row 3 with it.
    saveReports('r1', { rows: rows(4, 5, 'resumed'), events: [], samples: [] });
    await saved();
    expect(stored.iteration).toBe(5);
    expect(storedIterations()).toEqual(range(5));
    expect((stored.rows.get(4) as unknown as { tag: string }).tag).toBe('resumed');
  });

  it('counts exactly the rows before the checkpoint after a rewind with nothing in flight', async () => {
    saveReports('r2', { rows: rows(0, 6), events: [], samples: [] });
    await saved();
    rewindSaved('r2', 4, 'wasm');
    await saved();
    expect(stored.iteration).toBe(4);
    expect(storedIterations()).toEqual(range(4));
    saveReports('r2', { rows: rows(4, 7, 'resumed'), events: [], samples: [] });
    await saved();
    expect(stored.iteration).toBe(7);
    expect(storedIterations()).toEqual(range(7));
  });
});

describe('samplesToStore', () => {
  const at = (...its: number[]) => its.map((iteration) => ({ iteration }) as unknown as SampledTrajectory);
  it('keeps one sample per stride of planned/200 iterations, from the last one stored', () => {
    // 1000 planned iterations: stride 5. From a new run (−∞) 0 is kept, then 5, then 10.
    const first = samplesToStore(at(0, 1, 4, 5, 9, 10), 1000, Number.NEGATIVE_INFINITY);
    expect(first.kept.map((s) => s.iteration)).toEqual([0, 5, 10]);
    expect(first.lastStored).toBe(10);
    // The next batch goes on from 10: 14 is too close, 15 is kept.
    const next = samplesToStore(at(14, 15), 1000, first.lastStored);
    expect(next.kept.map((s) => s.iteration)).toEqual([15]);
    // Under 200 planned iterations every sample is kept.
    expect(samplesToStore(at(3, 4), 100, 2).kept).toHaveLength(2);
  });
});
