// The config of the run being shown: an opened (or replayed) run's own, else the stored record
// of the live run (written before it starts). Null when neither is known — viewers then fall
// back to what the env itself says.
import type { Config } from '../../core/config.js';
import { useApp } from './index.js';
import type { AppState } from './types.js';

/** The shown run's config, or null. */
export function runConfigOf(s: Pick<AppState, 'openedRun' | 'storedRuns' | 'runId'>): Config | null {
  if (s.openedRun) return s.openedRun.config;
  return s.storedRuns.find((r) => r.id === s.runId)?.config ?? null;
}

/** The shown run's action budget (maxActionsPerTraj), or undefined when unknown. */
export function useRunBudget(): number | undefined {
  return useApp((s) => runConfigOf(s)?.maxActionsPerTraj);
}
