// Running a list of `train` runs: in this process or `--jobs` child processes, skipping runs
// that already finished with the same config and refusing a directory that holds a different
// one; then the per-preset × algorithm table (runs, echo traps, mean peak and final success).
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../core/config.js';
import type { CliIo } from './command.js';
import { runTraining } from './commands/train.js';

/** One planned run. */
export interface SweepRun {
  preset: string;
  algo: Config['algorithm'];
  seed: number;
  dir: string;
  config: Config;
}

/** A run's summary as the table needs it. */
export interface RunResult {
  preset: string;
  algo: string;
  seed: number;
  echoTrap: boolean;
  recovered: boolean;
  peakSuccess: number;
  finalSuccess: number;
  firstWarningLead: number | null;
  wallSeconds: number;
}

export interface TableRow {
  preset: string;
  algo: string;
  runs: number;
  echoTraps: number;
  meanPeak: number;
  meanFinal: number;
}

async function readJson(path: string): Promise<unknown | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** 'done' (same config, summary present), 'todo', or throws for a changed config. */
export async function runState(run: SweepRun): Promise<'done' | 'todo'> {
  const existing = await readJson(join(run.dir, 'config.json'));
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(run.config)) {
    throw new Error(`${run.dir} holds a run with a different config: delete it or sweep into a new --out`);
  }
  const summary = (await readJson(join(run.dir, 'summary.json'))) as { completed?: boolean } | undefined;
  return existing !== undefined && summary?.completed ? 'done' : 'todo';
}

/** Per preset × algorithm aggregates, in run order. */
export function sweepTable(results: readonly RunResult[]): TableRow[] {
  const rows = new Map<string, RunResult[]>();
  for (const r of results) {
    const k = `${r.preset}\u0000${r.algo}`;
    rows.set(k, [...(rows.get(k) ?? []), r]);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return [...rows.values()].map((rs) => ({
    preset: rs[0]!.preset,
    algo: rs[0]!.algo,
    runs: rs.length,
    echoTraps: rs.filter((r) => r.echoTrap).length,
    meanPeak: mean(rs.map((r) => r.peakSuccess)),
    meanFinal: mean(rs.map((r) => r.finalSuccess)),
  }));
}

/** The table as Markdown. */
export function tableMarkdown(rows: readonly TableRow[]): string {
  const lines = [
    '| preset | algorithm | runs | echo traps | mean peak success | mean final success |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.preset} | ${r.algo} | ${r.runs} | ${r.echoTraps} | ${r.meanPeak.toFixed(3)} | ${r.meanFinal.toFixed(3)} |`,
    );
  return `${lines.join('\n')}\n`;
}

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
/** The project root: child runs start there and load tsx's ESM loader from its node_modules. */
const ROOT = resolvePath(dirname(MAIN), '../..');

function runChild(run: SweepRun, opts: { base?: string; models?: string }, io: CliIo): Promise<void> {
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
): Promise<TableRow[]> {
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
  const table = sweepTable(results);
  await writeFile(join(opts.out, 'table.json'), `${JSON.stringify({ runs: results, table }, null, 2)}\n`);
  await writeFile(join(opts.out, 'table.md'), tableMarkdown(table));
  return table;
}
