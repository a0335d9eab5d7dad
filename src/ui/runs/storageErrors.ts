// What to tell the user when saving a run to IndexedDB fails (issue 10): which iterations are
// not saved, what the stored copy still holds (every whole batch before them: batches are
// transactions), and — when the browser's quota for the site is full — which stored runs to
// delete to make room, biggest first. Pure: the controller gathers the facts.
import type { RunMeta } from '../../core/files/runFile.js';

/** Whether an IndexedDB failure means the site's storage quota is used up. */
export function isQuotaError(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return e.name === 'QuotaExceededError' || /quota/i.test(String(e.message ?? ''));
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Runs worth deleting first: the most iterations (rows dominate a run's size), then checkpoints. */
export function deletionCandidates(runs: readonly RunMeta[], exceptId: string, n = 3): RunMeta[] {
  return runs
    .filter((r) => r.id !== exceptId)
    .sort((a, b) => b.iteration - a.iteration || Number(b.hasCheckpoint) - Number(a.hasCheckpoint))
    .slice(0, n);
}

export interface SaveFailure {
  error: unknown;
  /** Iterations (0-based) of the rows that are not saved; empty when the batch had none. */
  unsaved: number[];
  /** Iterations the stored copy holds, whole (the first unsaved one, or the run's count). */
  savedIterations: number;
  runId: string;
  storedRuns: readonly RunMeta[];
  /** navigator.storage.estimate(), when the browser gives one. */
  usage?: { usage?: number; quota?: number } | null;
}

/** One notice: what failed, what is kept, and for a full quota which runs to delete. */
export function saveFailureText(f: SaveFailure): string {
  const name = (f.error as { name?: string } | null)?.name ?? 'Error';
  const message = (f.error as { message?: string } | null)?.message ?? String(f.error);
  const first = Math.min(...f.unsaved);
  const last = Math.max(...f.unsaved);
  const which =
    f.unsaved.length === 0
      ? 'The latest events of this run are not saved yet'
      : first === last
        ? `Iteration ${first} of this run is not saved yet`
        : `Iterations ${first}–${last} of this run are not saved yet`;
  const kept =
    f.savedIterations > 0
      ? `the stored copy is complete up to iteration ${f.savedIterations - 1}`
      : 'nothing of its series is stored yet';
  if (!isQuotaError(f.error)) {
    return `Saving to IndexedDB failed (${name}: ${message}). ${which}; ${kept}. Saving is retried with the next iterations.`;
  }
  const used =
    f.usage?.usage !== undefined && f.usage.quota !== undefined
      ? `; ${mb(f.usage.usage)} of ${mb(f.usage.quota)} used`
      : '';
  const candidates = deletionCandidates(f.storedRuns, f.runId);
  const names = candidates
    .map((r) => `"${r.name}" (${r.iteration} iterations${r.hasCheckpoint ? ', with a checkpoint' : ''})`)
    .join(', ');
  const what =
    candidates.length > 0
      ? `Delete runs you no longer need in the Runs tab (export them first to keep a file) — the biggest: ${names}.`
      : 'No other stored run can be deleted: free space for this site in the browser settings, or stop this run and export it.';
  return `Storage is full (${name}${used}). ${which}; ${kept}, and saving resumes once there is room. ${what}`;
}
