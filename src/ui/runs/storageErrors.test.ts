// The save-failure notice: a full quota names the unsaved iterations, what the stored copy
// still holds, the usage, and the biggest other runs to delete; other failures say it retries.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.js';
import type { RunMeta } from '../../core/files/runFile.js';
import { deletionCandidates, isQuotaError, saveFailureText } from './storageErrors.js';

const run = (id: string, iteration: number, hasCheckpoint = false): RunMeta => ({
  id,
  name: `run ${id}`,
  createdAt: 0,
  updatedAt: 0,
  status: 'finished',
  config: defaultConfig(),
  iteration,
  summary: null,
  base: { id: 'fresh', label: 'fresh', untrained: true },
  backend: 'wasm',
  hasCheckpoint,
});

const quota = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });

describe('storage failures', () => {
  it('recognises quota errors by name or message', () => {
    expect(isQuotaError(quota)).toBe(true);
    expect(isQuotaError(new Error('Quota exceeded for origin'))).toBe(true);
    expect(isQuotaError(new Error('Transaction aborted'))).toBe(false);
    expect(isQuotaError(null)).toBe(false);
  });

  it('suggests the biggest other runs, never the run being saved', () => {
    const runs = [run('a', 10), run('b', 900), run('cur', 5000), run('c', 900, true), run('d', 40)];
    expect(deletionCandidates(runs, 'cur').map((r) => r.id)).toEqual(['c', 'b', 'd']);
  });

  it('says what is unsaved, what is kept and what to delete when the quota is full', () => {
    const text = saveFailureText({
      error: quota,
      unsaved: [7, 8],
      savedIterations: 7,
      runId: 'cur',
      storedRuns: [run('cur', 7), run('old', 1200, true), run('small', 3)],
      usage: { usage: 49.5 * 1024 * 1024, quota: 50 * 1024 * 1024 },
    });
    expect(text).toContain('Storage is full (QuotaExceededError; 49.5 MB of 50.0 MB used)');
    expect(text).toContain('Iterations 7–8 of this run are not saved yet');
    expect(text).toContain('complete up to iteration 6');
    expect(text).toContain('"run old" (1200 iterations, with a checkpoint), "run small" (3 iterations)');
    expect(text).not.toContain('"run cur"');
  });

  it('has nothing to suggest deleting when this is the only run, and retries other failures', () => {
    const alone = saveFailureText({
      error: quota,
      unsaved: [0],
      savedIterations: 0,
      runId: 'x',
      storedRuns: [run('x', 0)],
    });
    expect(alone).toContain('Iteration 0 of this run is not saved yet; nothing of its series is stored yet');
    expect(alone).toContain('No other stored run can be deleted');
    const other = saveFailureText({
      error: new Error('Transaction aborted'),
      unsaved: [3],
      savedIterations: 3,
      runId: 'x',
      storedRuns: [],
    });
    expect(other).toMatch(
      /^Saving to IndexedDB failed \(Error: Transaction aborted\)\. Iteration 3 .* retried/,
    );
  });
});
