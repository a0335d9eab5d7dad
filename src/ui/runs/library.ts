// The stored runs as the Runs tab handles them: the list, rename, delete, overlays on the charts,
// and files out and in — a run or checkpoint exported as a file, and a file imported only after
// it is validated whole (core/files/runFile.ts), stored in one transaction; a bad file changes
// nothing. Every read waits for the queued saves first (runSaver.ts).
import {
  checkpointToFile,
  importedName,
  parseFile,
  type RunMeta,
  runToFile,
} from '../../core/files/runFile.js';
import { download, fileName } from '../download.js';
import { useApp } from '../store/index.js';
import { MAX_RUN_FILE_BYTES, sizeRefusal } from './fileLimits.js';
import { flushWrites, write } from './runSaver.js';
import * as db from './runsDb.js';

/** Reloads the stored runs' records into the store. */
export async function refreshRuns(): Promise<void> {
  await flushWrites();
  useApp.getState().setStoredRuns(await db.listRuns());
}

export async function exportRun(id: string): Promise<void> {
  await flushWrites();
  const data = await db.loadRun(id);
  if (data) download(`${fileName(data.meta.name)}.starpo-run.json`, runToFile(data));
}

export async function exportCheckpoint(id: string): Promise<void> {
  await flushWrites();
  const meta = useApp.getState().storedRuns.find((r) => r.id === id);
  const cp = await db.getCheckpoint(id);
  if (!cp || !meta)
    return useApp.getState().setNotice({ kind: 'error', text: 'this run has no checkpoint yet' });
  download(`${fileName(meta.name)}.starpo-checkpoint.json`, checkpointToFile(meta.name, cp));
}

/** Validates a file fully, then stores it in one transaction; a bad file changes nothing. */
export async function importFile(file: File): Promise<void> {
  const s = useApp.getState();
  const tooBig = sizeRefusal(file, MAX_RUN_FILE_BYTES, 'run and checkpoint files');
  if (tooBig) return s.setNotice({ kind: 'error', text: tooBig });
  const parsed = parseFile(await file.text());
  if (!parsed.ok) return s.setNotice({ kind: 'error', text: `${file.name} was refused: ${parsed.message}` });
  const id = `import-${crypto.randomUUID()}`;
  if (parsed.kind === 'run') {
    await db.storeRun({
      ...parsed.run,
      meta: { ...parsed.run.meta, id, name: importedName(parsed.run.meta.name) },
    });
  } else {
    const meta: RunMeta = {
      id,
      name: importedName(parsed.name),
      createdAt: Date.now(),
      updatedAt: Date.now(),
      status: 'finished',
      config: s.config,
      iteration: parsed.checkpoint.iteration,
      summary: null,
      base: { id: 'imported', label: 'imported checkpoint', untrained: false },
      backend: null,
      hasCheckpoint: true,
    };
    await db.storeRun({ meta, rows: [], events: [], samples: [], checkpoint: parsed.checkpoint });
  }
  await refreshRuns();
  s.setNotice({ kind: 'info', text: `Imported ${file.name}` });
}

export async function deleteStoredRun(id: string): Promise<void> {
  await flushWrites();
  await db.deleteRun(id);
  useApp.getState().removeOverlay(id);
  await refreshRuns();
}

export async function renameRun(id: string, name: string): Promise<void> {
  if (!name.trim()) return;
  write(() => db.patchRun(id, { name: name.trim().slice(0, 200) }));
  await refreshRuns();
}

/** Shows a stored run's curves over the current run's, or takes them away. */
export async function toggleOverlay(id: string): Promise<void> {
  const s = useApp.getState();
  if (s.overlays.some((o) => o.id === id)) return s.removeOverlay(id);
  await flushWrites();
  const meta = s.storedRuns.find((r) => r.id === id);
  s.addOverlay({ id, name: meta?.name ?? id, rows: await db.loadRows(id) });
}
