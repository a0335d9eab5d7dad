// The run slice's bookkeeping: the iteration counter keeps up with the rows (a stopped run's last
// batch comes with no progress report after it), and a rewind to a checkpoint at k keeps exactly
// the rows, events and samples of iterations 0..k-1 and sets the counter to k; a stored run
// opened read-only becomes the shown run (rows, events, samples, its config), never over a live one.
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.js';
import type { RunData } from '../../core/files/runFile.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { SampledTrajectory, TrainerEvent } from '../../core/rl/trainer.js';
import { useApp } from './index.js';
import { openedRunId } from './runSlice.js';

const rows = (from: number, to: number): MetricRow[] =>
  Array.from({ length: to - from }, (_, i) => ({ iteration: from + i }));
const live = (iteration: number): TrainerEvent => ({ type: 'live', iteration, changes: { lr: 0.01 } });
const sample = (iteration: number) => ({ iteration }) as unknown as SampledTrajectory;
const its = (xs: readonly { iteration: number }[]) => xs.map((x) => x.iteration);

beforeEach(() => {
  useApp.getState().beginRun('r', 'run', 20, 'minigrid/Empty-5x5');
});

describe('run slice', () => {
  it('a new run and a reset drop the last run’s jump-to-iteration cursor', () => {
    const s = () => useApp.getState();
    s().jumpTo(7);
    expect(s().focusIteration).toBe(7);
    s().beginRun('r2', 'run 2', 20, 'minigrid/Empty-5x5');
    expect(s().focusIteration).toBeNull();
    s().jumpTo(3);
    s().clearRun();
    expect(s().focusIteration).toBeNull();
  });

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

  it('opens a stored run read-only: its data shown, its config kept, refused while a run trains', () => {
    const s = () => useApp.getState();
    const config = { ...defaultConfig(), env: 'bandit/Bandit', iterations: 6 };
    const data: RunData = {
      meta: {
        id: 'stored-1',
        name: 'stored bandit',
        createdAt: 0,
        updatedAt: 0,
        status: 'stopped',
        config,
        iteration: 4,
        summary: null,
        base: { id: 'b', label: 'b', untrained: false },
        backend: 'wasm',
        hasCheckpoint: false,
      },
      rows: rows(0, 4),
      events: [live(2)],
      samples: [sample(1), sample(3)],
      checkpoint: null,
    };
    s().setRunStatus('running');
    expect(s().openRun(data)).toBe(false);
    expect(s().runId).toBe('r');
    s().setRunStatus('finished');
    expect(s().openRun(data)).toBe(true);
    expect(s().runId).toBe(openedRunId('stored-1'));
    expect(s().runName).toBe('stored bandit');
    expect(s().runEnv).toBe('bandit/Bandit');
    expect(its(s().rows)).toEqual([0, 1, 2, 3]);
    expect(its(s().events)).toEqual([2]);
    expect(its(s().samples)).toEqual([1, 3]);
    expect(s().iteration).toBe(4);
    expect(s().planned).toBe(6);
    expect(s().openedRun?.config.env).toBe('bandit/Bandit');
    expect(s().rightTab).toBe('trajectory');
    // A new run clears it.
    s().beginRun('r2', 'next', 5, 'minigrid/Empty-5x5');
    expect(s().openedRun).toBeNull();
  });
});
