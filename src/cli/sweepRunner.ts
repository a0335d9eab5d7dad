// Running a list of `train` runs: in this process or `--jobs` child processes, skipping runs
// that already finished with the same config (a stored config lacking only fields added since,
// at their defaults, counts as the same) and refusing a directory that holds a different one;
// then the per-preset × algorithm table (core/files/sweepBundle.ts sweepTable: runs, echo traps,
// mean peak and final success).
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../core/config.js';
import {
  type RunSummaryFile,
  type SweepTableRow,
  sweepTable,
  tableMarkdown,
} from '../core/files/sweepBundle.js';
import type { CliIo } from './command.js';
import { sameStoredConfig } from './runDir.js';
import { runTraining } from './runTraining.js';

/** One planned run. */
export interface SweepRun {
  preset: string;
  algo: Config['algorithm'];
  seed: number;
  dir: string;
  config: Config;
}

/** A finished run's summary.json with its cell, as table.json lists it. */
export type RunResult = RunSummaryFile & { preset: string; algo: string; seed: number };

async function readJson(path: string): Promise<unknown | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export { completeStoredConfig, sameStoredConfig } from './runDir.js';

/**
 * 'done' (same config, summary present), 'todo', or throws for a changed config. A stored config
 * that lacks only fields added since, at their defaults, is the same config (sameStoredConfig).
 */
export async function runState(run: SweepRun): Promise<'done' | 'todo'> {
  const existing = (await readJson(join(run.dir, 'config.json'))) as Record<string, unknown> | undefined;
  if (existing !== undefined && !sameStoredConfig(existing, run.config)) {
    throw new Error(`${run.dir} holds a run with a different config: delete it or sweep into a new --out`);
  }
  const summary = (await readJson(join(run.dir, 'summary.json'))) as { completed?: boolean } | undefined;
  return existing !== undefined && summary?.completed ? 'done' : 'todo';
}

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
/** The project root: child runs start there and load tsx's ESM loader from its node_modules. */
const ROOT = resolvePath(dirname(MAIN), '../..');

function runChild(
  run: SweepRun,
  opts: { jobs: number; base?: string; models?: string },
  io: CliIo,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const dir = resolvePath(run.dir);
    const args = [
      '--import',
      'tsx',
      MAIN,
      'train',
      '--config',
      join(dir, 'request.json'),
      '--out',
      dir,
      '--quiet',
      // A run stopped part-way goes on from its last checkpoint (or again from 0 without one).
      '--resume',
      // Each child is one of `jobs` runs on this machine: its schedule leaves cores to the others.
      '--lanes',
      String(opts.jobs),
    ];
    if (opts.base) args.push('--base', opts.base === 'random' ? 'random' : resolvePath(opts.base));
    if (opts.models) args.push('--models', resolvePath(opts.models));
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => {
      err += String(c);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else {
        io.stderr.write(err);
        reject(new Error(`run ${run.dir} failed with exit ${code}`));
      }
    });
  });
}

/** Plans, runs (skipping finished runs) and tabulates a sweep. */
export async function runSweep(
  runs: readonly SweepRun[],
  opts: { out: string; jobs: number; base?: string; models?: string },
  io: CliIo,
): Promise<SweepTableRow[]> {
  const todo: SweepRun[] = [];
  for (const run of runs) if ((await runState(run)) === 'todo') todo.push(run);
  io.stderr.write(
    `sweep: ${runs.length} runs, ${runs.length - todo.length} already done, ${todo.length} to run with ${opts.jobs} job(s)\n`,
  );
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < todo.length) {
      const run = todo[next++] as SweepRun;
      await mkdir(run.dir, { recursive: true });
      if (opts.jobs > 1) {
        await writeFile(join(run.dir, 'request.json'), JSON.stringify(run.config));
        await runChild(run, opts, io);
      } else {
        await runTraining(
          run.config,
          { out: run.dir, base: opts.base, models: opts.models, quiet: true },
          io,
        );
      }
      finished++;
      io.stderr.write(`sweep: ${finished}/${todo.length} ${run.preset} ${run.algo} seed ${run.seed} done\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.jobs) }, worker));
  const results: RunResult[] = [];
  for (const run of runs) {
    const s = (await readJson(join(run.dir, 'summary.json'))) as RunResult;
    results.push({ ...s, preset: run.preset, algo: run.algo, seed: run.seed });
  }
  return writeSweepTable(opts.out, results);
}

/** Writes `out`/table.json (every run's summary with its cell, and the table) and table.md. */
export async function writeSweepTable(out: string, results: readonly RunResult[]): Promise<SweepTableRow[]> {
  const table = sweepTable(results);
  await writeFile(join(out, 'table.json'), `${JSON.stringify({ runs: results, table }, null, 2)}\n`);
  await writeFile(join(out, 'table.md'), tableMarkdown(table));
  return table;
}
