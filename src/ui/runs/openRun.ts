// Opening a stored run from the run list: its rows, events and samples are loaded from
// IndexedDB and shown read-only as the current run (charts, echo banner, trajectory viewer), as
// the tour shows its recordings. Refused, with a notice, while a run trains in the worker.
import { useApp } from '../store/index.js';
import { flushWrites } from './runSaver.js';
import { loadRun } from './runsDb.js';

/** Shows the stored run `id` in the charts and viewer; false when refused or missing. */
export async function openStoredRun(id: string): Promise<boolean> {
  await flushWrites();
  const data = await loadRun(id);
  const s = useApp.getState();
  if (!data) {
    s.setNotice({ kind: 'error', text: 'that run is no longer stored' });
    return false;
  }
  s.removeOverlay(id);
  if (!s.openRun(data)) {
    s.setNotice({ kind: 'error', text: 'a run is training: stop or reset it before opening another' });
    return false;
  }
  return true;
}
