// `npm run starpo -- results compress <dir> [more dirs]`: stores the records of every finished
// run under the folders named as brotli (cli/runRecords.ts: metrics.jsonl → metrics.jsonl.br, the
// same for events.jsonl, each checked to decompress to the original bytes before the plain file
// goes); a record stored gzip'd by an earlier version (.gz) is re-stored as brotli the same way.
// `results cat <run dir> [metrics|events]` prints a record's text in whichever form it is stored.
// A run is finished when its summary.json exists and counts as many iterations as its metrics have
// rows; a run without one may still be appending to its records, and one whose summary disagrees
// may be a run started again over a finished one (`train --force`), so both are left alone. Every
// reader of records reads either form.
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CliIo, type Command, UsageError } from '../command.js';
import {
  BR,
  compressRecord,
  GZ,
  hasRecord,
  RECORDS,
  type RecordName,
  readRecord,
  readRecordRows,
  recordForm,
} from '../runRecords.js';
import { rerunRows } from './rerun.js';

/** What one compress pass did. */
export interface CompressTally {
  /** Finished runs with at least one record compressed now. */
  compressed: number;
  /** Runs holding a plain record but not finished (above), skipped, each with why. */
  unfinished: string[];
  files: number;
  /** Of `files`, those re-stored from gzip. */
  fromGz: number;
  plainBytes: number;
  storedBytes: number;
}

/** Why the run in `dir` is not finished, or null when it is. */
async function unfinishedWhy(dir: string): Promise<string | null> {
  let summary: { iterations?: unknown };
  try {
    summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'no summary.json (in progress?)';
    throw err;
  }
  if (!(await hasRecord(dir, 'metrics.jsonl'))) return 'no metrics.jsonl';
  const rows = (await readRecordRows(dir, 'metrics.jsonl')).length;
  if (typeof summary.iterations === 'number' && summary.iterations !== rows)
    return `summary.json counts ${summary.iterations} iterations, metrics.jsonl has ${rows} rows`;
  return null;
}

/** Compresses the records of the finished run in `dir`, if it is one, and adds to `t`. */
async function compressRun(dir: string, t: CompressTally): Promise<void> {
  // Records not yet brotli: plain, or gzip'd by an earlier version.
  const plain: RecordName[] = [];
  for (const name of RECORDS) {
    const form = await recordForm(dir, name);
    if (form !== null && form !== BR) plain.push(name);
  }
  if (plain.length === 0) return;
  const why = await unfinishedWhy(dir);
  if (why !== null) {
    t.unfinished.push(`${dir}: ${why}`);
    return;
  }
  for (const name of plain) {
    const r = await compressRecord(dir, name);
    if (!r) continue;
    t.files++;
    if (r.from === GZ) t.fromGz++;
    t.plainBytes += r.plain;
    t.storedBytes += r.stored;
  }
  t.compressed++;
}

/** Compresses every finished run's records under `root` (checkpoints folders not entered). */
export async function compressRuns(root: string, t?: CompressTally): Promise<CompressTally> {
  const tally = t ?? emptyTally();
  await compressRun(root, tally);
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`no folder ${root}`);
    throw err;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries)
    if (e.isDirectory() && e.name !== 'checkpoints') await compressRuns(join(root, e.name), tally);
  return tally;
}

/** `results rerun <run dir> [--iters N]`: 0 when every row is the stored one, 1 otherwise. */
async function rerunAction(args: string[], io: CliIo): Promise<number> {
  const [dir, flag, value, ...more] = args;
  if (!dir || dir.startsWith('--') || more.length > 0 || (flag !== undefined && flag !== '--iters'))
    throw new UsageError('results rerun: give one run folder, then optionally --iters N');
  const n = flag === undefined ? 30 : Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`results rerun: --iters must be a whole number ≥ 1 (got "${value ?? ''}")`);
  const t = await rerunRows(dir, n, (l) => io.stderr.write(`${l}\n`));
  io.stdout.write(`${JSON.stringify({ run: dir, rows: t.rows, differing: t.differ, added: t.added })}\n`);
  return t.differ.length === 0 ? 0 : 1;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const emptyTally = (): CompressTally => ({
  compressed: 0,
  unfinished: [],
  files: 0,
  fromGz: 0,
  plainBytes: 0,
  storedBytes: 0,
});

/** `results compress <dir> [more dirs]`. */
async function compressAction(dirs: string[], io: CliIo): Promise<number> {
  if (dirs.length === 0 || dirs.some((d) => d.startsWith('--')))
    throw new UsageError('results compress: give the folders to compress');
  const tally = emptyTally();
  for (const dir of dirs) await compressRuns(dir, tally);
  for (const d of tally.unfinished) io.stderr.write(`skipped ${d}\n`);
  io.stderr.write(
    `results compress: ${tally.compressed} finished run(s), ${tally.files} file(s) (${tally.fromGz} from gzip), ${mb(tally.plainBytes)} of text → ${mb(tally.storedBytes)} brotli; ${tally.unfinished.length} unfinished skipped\n`,
  );
  return 0;
}

/** `results cat <run dir> [metrics|events]`: the record's text, in whichever form it is stored. */
async function catAction(args: string[], io: CliIo): Promise<number> {
  const [dir, which = 'metrics', ...more] = args;
  const name = RECORDS.find((r) => r === `${which}.jsonl`);
  if (!dir || dir.startsWith('--') || more.length > 0 || !name)
    throw new UsageError(
      `results cat: give one run folder, then optionally metrics or events${which !== 'metrics' && !name ? ` (got "${which}")` : ''}`,
    );
  if (!(await hasRecord(dir, name)))
    throw new UsageError(`results cat: ${dir} holds no ${name} (plain, ${name}${BR} or ${name}${GZ})`);
  io.stdout.write(await readRecord(dir, name));
  return 0;
}

const ACTIONS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  compress: compressAction,
  rerun: rerunAction,
  cat: catAction,
};

export const resultsCommand: Command = {
  name: 'results',
  summary:
    "store finished runs' records as brotli (metrics.jsonl.br, events.jsonl.br), print a record, or rerun a stored run",
  usage: [
    'usage: npm run starpo -- results compress <dir> [more dirs]  (finished runs only; gzip’d records re-stored too)',
    '       npm run starpo -- results cat <run dir> [metrics|events]  (the record’s text, default metrics)',
    '       npm run starpo -- results rerun <run dir> [--iters N]  (train its first N iterations again, default 30, and compare every row but the machine keys)',
  ].join('\n'),
  async run(args, io) {
    const [action, ...rest] = args;
    const act = action !== undefined && Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    if (!act) throw new UsageError(`the first word must be compress, cat or rerun (got "${action ?? ''}")`);
    return act(rest, io);
  },
};
