// The run slice's bookkeeping: the iteration counter keeps up with the rows (a stopped run's last
// batch comes with no progress report after it), and a rewind to a checkpoint at k keeps exactly
// the rows, events and samples of iterations 0..k-1 and sets the counter to k.
import { beforeEach, describe, expect, it } from 'vitest';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { SampledTrajectory, TrainerEvent } from '../../core/rl/trainer.js';
import { useApp } from './index.js';

const rows = (from: number, to: number): MetricRow[] =>
  Array.from({ length: to - from }, (_, i) => ({ iteration: from + i }));
const live = (iteration: number): TrainerEvent => ({ type: 'live', iteration, changes: { lr: 0.01 } });
const sample = (iteration: number) => ({ iteration }) as unknown as SampledTrajectory;
const its = (xs: readonly { iteration: number }[]) => xs.map((x) => x.iteration);

beforeEach(() => {
  useApp.getState().beginRun('r', 'run', 20, 'minigrid/Empty-5x5');
});

describe('run slice', () => {
  it('counts at least the iterations whose rows arrived, and never goes back on a late batch', () => {
    const s = () => useApp.getState();
    s().addReports(rows(0, 3), [], []);
    expect(s().iteration).toBe(3);
    // Progress says more (non-finite iterations add no rows): the counter follows it.
    s().setProgress(5, 20, 'running');
    s().addReports([], [live(5)], []);
    expect(s().iteration).toBe(5);
    s().addReports(rows(5, 6), [], []);
    expect(s().iteration).toBe(6);
  });

  it('rewinds to a checkpoint at k: rows, events and samples of 0..k-1 and a counter of k', () => {
    const s = () => useApp.getState();
    s().addReports(rows(0, 6), [live(2), live(4)], [sample(1), sample(4), sample(5)]);
    s().setProgress(6, 20, 'running');
    s().rewindRun(4);
    expect(its(s().rows)).toEqual([0, 1, 2, 3]);
    expect(its(s().events)).toEqual([2]);
    expect(its(s().samples)).toEqual([1]);
    expect(s().iteration).toBe(4);
    // The resumed run's rows follow on from row 3.
    s().addReports(rows(4, 5), [], []);
    expect(its(s().rows)).toEqual([0, 1, 2, 3, 4]);
    expect(s().iteration).toBe(5);
  });
});
