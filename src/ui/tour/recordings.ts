// The tour's recorded runs: run files in the playground's export format, served from
// public/recorded/ (made by scripts/record-tour-runs.ts with the real CLI trainer). Each is
// validated by the same parser as an imported run file; the tour names them by their recorded
// names ("recorded run of …"), never as live training.
import { parseFile, type RunData } from '../../core/files/runFile.js';

export const RECORDING_FILES = {
  starpo: 'recorded/echo-trap-starpo.json',
  starpoS: 'recorded/echo-trap-starpo-s.json',
} as const;

export interface Recordings {
  starpo: RunData;
  starpoS: RunData;
}

async function load(path: string, id: string): Promise<RunData> {
  const res = await fetch(new URL(path, document.baseURI));
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  const parsed = parseFile(await res.text());
  if (!parsed.ok) throw new Error(`${path}: ${parsed.message}`);
  if (parsed.kind !== 'run') throw new Error(`${path} is a checkpoint, not a run`);
  return { ...parsed.run, meta: { ...parsed.run.meta, id } };
}

let cache: Promise<Recordings> | null = null;

/** Loads (once) both recordings. */
export function loadRecordings(): Promise<Recordings> {
  cache ??= Promise.all([
    load(RECORDING_FILES.starpo, 'recorded-starpo'),
    load(RECORDING_FILES.starpoS, 'recorded-starpo-s'),
  ]).then(([starpo, starpoS]) => ({ starpo, starpoS }));
  cache.catch(() => {
    cache = null;
  });
  return cache;
}
