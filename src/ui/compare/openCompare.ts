// Opening the compare view on stored runs: loads each run's rows and events from IndexedDB.
import { flushWrites } from '../runs/runSaver.js';
import { loadRun } from '../runs/runsDb.js';
import type { CompareRun } from '../store/compareSlice.js';
import { useApp } from '../store/index.js';
import { RUN_COLORS } from '../store/viewSlice.js';

/** Opens the compare view on the stored runs `ids` (missing ones are skipped). */
export async function compareStoredRuns(ids: readonly string[]): Promise<void> {
  await flushWrites();
  const runs: CompareRun[] = [];
  for (const id of ids) {
    const data = await loadRun(id);
    if (!data) continue;
    runs.push({
      id,
      name: data.meta.name,
      color: RUN_COLORS[runs.length % RUN_COLORS.length] as string,
      config: data.meta.config,
      rows: data.rows,
      events: data.events,
    });
  }
  useApp.getState().openCompare(`${runs.length} stored runs`, runs);
}
