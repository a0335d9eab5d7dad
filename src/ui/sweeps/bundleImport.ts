// Importing a sweep bundle in the Sweeps dialog: refused from its size before it is read (the
// limit named), then validated whole (core/files/sweepBundle.ts) and stored as one sweep record.

import { parseBundle } from '../../core/files/sweepBundle.js';
import { MAX_SWEEP_BUNDLE_BYTES, sizeRefusal } from '../runs/fileLimits.js';
import { useApp } from '../store/index.js';
import { refreshSweeps } from './sweepRunner.js';
import { putSweep } from './sweepsDb.js';

/** Imports a sweep bundle file; a file over the limit or with a bad field changes nothing. */
export async function importBundle(file: File): Promise<void> {
  const s = useApp.getState();
  const tooBig = sizeRefusal(file, MAX_SWEEP_BUNDLE_BYTES, 'sweep bundles');
  if (tooBig) return s.setNotice({ kind: 'error', text: tooBig });
  const parsed = parseBundle(await file.text());
  if (!parsed.ok) return s.setNotice({ kind: 'error', text: `${file.name} was refused: ${parsed.message}` });
  const id = `sweep-import-${Date.now().toString(36)}`;
  const seeds = [...new Set(parsed.runs.map((r) => r.seed))];
  await putSweep({
    id,
    name: parsed.name,
    createdAt: Date.now(),
    status: 'imported',
    axes: parsed.axes,
    seeds,
    planned: 0,
    runs: parsed.runs,
  });
  await refreshSweeps();
  s.setSweeps({ selectedSweep: id });
  s.setNotice({ kind: 'info', text: `Imported sweep ${parsed.name} (${parsed.runs.length} runs)` });
}
