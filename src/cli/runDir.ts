// A run's directory as `train --out` finds it: empty (or only a sweep's request and provenance),
// a run stopped part-way (its rows so far and, with checkpointEvery, checkpoints), or a finished
// run. `train` never overwrites a run unasked: `--resume` continues it from its last checkpoint,
// writing the rows the uninterrupted run would have; `--force` starts it again from 0.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Config, defaultConfig } from '../core/config.js';
import type { MetricRow } from '../core/metrics/keys.js';
import { UsageError } from './command.js';
import { type RecordName, readRecord } from './runRecords.js';

/** What `train` does with an `--out` that holds a run. */
export type OutMode = 'new' | 'resume' | 'force';

/** Where a resumed run starts: its checkpoint and the rows and events before it. */
export interface ResumePoint {
  iteration: number;
  rows: MetricRow[];
  manifest: unknown;
  blob: Uint8Array;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * A stored config.json completed with today's defaults for the fields it lacks (fields added
 * since the run was made); its own values, and keys today's config no longer has, stay as stored.
 * Unlike core/config.ts completeConfig it does not validate: a run is read back as it ran.
 */
export function completeStoredConfig(stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { ...defaultConfig(), ...stored };
}

/**
 * Whether a stored config is the planned one: the same keys with the same values once the stored
 * one is completed with today's defaults (completeStoredConfig), in any key order.
 */
export function sameStoredConfig(stored: Readonly<Record<string, unknown>>, planned: Config): boolean {
  return differingFields(stored, planned).length === 0;
}

/** The fields whose values differ between a stored config (completed) and `planned`. */
export function differingFields(stored: Readonly<Record<string, unknown>>, planned: Config): string[] {
  const a = completeStoredConfig(stored);
  const b = planned as unknown as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => !(k in a && k in b) || JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** A record's text, plain or gzip'd (runRecords.ts), or undefined when the run has none. */
const recordText = (dir: string, name: RecordName): Promise<string | undefined> =>
  readRecord(dir, name).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });

/** One JSON value per line (blank lines skipped). */
const jsonLines = (text: string | undefined): Record<string, unknown>[] =>
  (text ?? '')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The iterations of the checkpoints `iter-N` in a run's directory, highest first. */
async function checkpointIterations(dir: string): Promise<number[]> {
  const names = await readdir(join(dir, 'checkpoints')).catch(() => [] as string[]);
  const its = names.flatMap((n) => {
    const m = /^iter-(\d+)\.json$/.exec(n);
    return m && names.includes(`iter-${m[1]}.bin`) ? [Number(m[1])] : [];
  });
  return its.sort((a, b) => b - a);
}

/** How far the run in `dir` got: null when it holds none; its rows; finished or not. */
async function storedRun(dir: string) {
  const config = await readText(join(dir, 'config.json'));
  if (config === undefined) return null;
  const rows = jsonLines(await recordText(dir, 'metrics.jsonl'));
  const summary = await readText(join(dir, 'summary.json'));
  const finished =
    summary !== undefined && (JSON.parse(summary) as { completed?: boolean }).completed === true;
  return { config: JSON.parse(config) as Record<string, unknown>, rows, finished, summary };
}

/**
 * What `train` may do with `dir` for `config` in `mode`: start (null), resume from a checkpoint,
 * or report a finished run ('finished', with `--resume`); refuses, naming the way on, an `--out`
 * that holds a run when neither --resume nor --force is given, and a resume with another config.
 */
export async function claimRunDir(
  dir: string,
  config: Config,
  mode: OutMode,
  say: (line: string) => void,
): Promise<ResumePoint | 'finished' | null> {
  const run = await storedRun(dir);
  if (!run || mode === 'force') return null;
  const state = run.finished ? 'a finished run' : `a run stopped after ${run.rows.length} iteration(s)`;
  if (mode === 'new')
    throw new UsageError(
      `--out ${dir} already holds ${state}: pass --resume to continue it from its last checkpoint, or --force to start it again from 0 (its files are overwritten)`,
    );
  const differ = differingFields(run.config, config);
  if (differ.length > 0)
    throw new UsageError(
      `--resume: the run in ${dir} has another config (${differ.join(', ')} differ): resume it with the flags it was started with, or use --force`,
    );
  if (run.finished) return 'finished';
  const its = (await checkpointIterations(dir)).filter((n) => n <= run.rows.length);
  if (its.length === 0) {
    say(
      `resume: the run in ${dir} has no checkpoint (checkpointEvery ${config.checkpointEvery}); starting it again from 0`,
    );
    return null;
  }
  return resumePoint(dir, its[0] as number, run.rows);
}

/** The checkpoint at `iteration`, and the run's rows and events cut back to before it. */
async function resumePoint(
  dir: string,
  iteration: number,
  all: Record<string, unknown>[],
): Promise<ResumePoint> {
  const before = (r: Record<string, unknown>) => typeof r.iteration !== 'number' || r.iteration < iteration;
  const rows = all.filter(before) as unknown as MetricRow[];
  const events = jsonLines(await recordText(dir, 'events.jsonl')).filter(before);
  const lines = (xs: readonly object[]) => xs.map((x) => `${JSON.stringify(x)}\n`).join('');
  await writeFile(join(dir, 'metrics.jsonl'), lines(rows));
  await writeFile(join(dir, 'events.jsonl'), lines(events));
  const name = join(dir, 'checkpoints', `iter-${iteration}`);
  return {
    iteration,
    rows,
    manifest: JSON.parse(await readFile(`${name}.json`, 'utf8')),
    blob: new Uint8Array(await readFile(`${name}.bin`)),
  };
}
