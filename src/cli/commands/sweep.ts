// `npm run starpo -- sweep --algos a,b --seeds 4 --out <dir>`: algorithms × seeds (× named
// presets) as separate `train` runs, `--jobs` at a time in child processes, resumable: a run
// whose summary.json exists with the same config is skipped, and a run directory holding a
// different config is an error rather than a silent mix. Writes <out>/table.md and
// table.json: per preset and algorithm, runs, echo traps, mean peak and final success.
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALGORITHM_NAMES, type Config } from '../../core/config.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';
import { resolveTrainConfig, runTraining, settingsFor, TRAIN_FIELD_FLAGS } from './train.js';

const SWEEP_FLAGS: FlagSpec[] = [
  { name: 'out', kind: 'string', help: 'output directory (required)' },
  {
    name: 'algos',
    kind: 'string',
    help: `comma-separated algorithms (default all: ${ALGORITHM_NAMES.join(',')})`,
  },
  { name: 'seeds', kind: 'string', help: 'a count (4 → seeds 1..4) or a comma-separated list (default 2)' },
  { name: 'jobs', kind: 'int', help: 'runs at a time, each in its own process (default 1: in this process)' },
  { name: 'config', kind: 'string', help: 'a JSON file with config fields shared by every run' },
  { name: 'base', kind: 'string', help: 'base model for every run: a checkpoint .json or "random"' },
  { name: 'models', kind: 'string', help: 'directory of the models index (default public/models)' },
];

const FLAGS = [...SWEEP_FLAGS, ...TRAIN_FIELD_FLAGS.filter((f) => f.name !== 'algo' && f.name !== 'seed')];

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

function parseSeeds(text: string | undefined): number[] {
  if (text === undefined) return [1, 2];
  if (/^\d+$/.test(text)) return Array.from({ length: Number(text) }, (_, i) => i + 1);
  const seeds = text.split(',').map((s) => Number(s.trim()));
  if (seeds.some((s) => !Number.isInteger(s) || s < 0))
    throw new UsageError(`--seeds: "${text}" is not a count or a list of seeds`);
  return seeds;
}

function parseAlgos(text: string | undefined): Config['algorithm'][] {
  if (text === undefined) return [...ALGORITHM_NAMES];
  const algos = text.split(',').map((s) => s.trim());
  for (const a of algos) {
    if (!(ALGORITHM_NAMES as readonly string[]).includes(a))
      throw new UsageError(`--algos: "${a}" is not one of ${ALGORITHM_NAMES.join(', ')}`);
  }
  return algos as Config['algorithm'][];
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

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
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

export const sweepCommand: Command = {
  name: 'sweep',
  summary: 'algorithms × seeds as separate runs (resumable, --jobs), with an echo-trap table',
  usage: `usage: npm run starpo -- sweep --out <dir> [--algos a,b] [--seeds 4] [--jobs 2] [config flags]\n\n${flagHelp(FLAGS)}`,
  async run(args, io) {
    const flags = parseFlags(args, FLAGS);
    if (typeof flags.out !== 'string' || flags.out === '') throw new UsageError('--out <dir> is required');
    const algos = parseAlgos(flags.algos as string | undefined);
    const seeds = parseSeeds(flags.seeds === undefined ? undefined : String(flags.seeds));
    const jobs = Number(flags.jobs ?? 1);
    if (!(jobs >= 1 && jobs <= 16)) throw new UsageError('--jobs must be from 1 to 16');
    const base = flags.base as string | undefined;
    const models = flags.models as string | undefined;
    const runs: SweepRun[] = [];
    for (const algo of algos) {
      for (const seed of seeds) {
        const perRun = { ...flags, algo, seed: String(seed) };
        const config = await resolveTrainConfig(perRun, await settingsFor(perRun, base, models));
        runs.push({
          preset: 'custom',
          algo,
          seed,
          dir: join(flags.out, 'custom', algo, `seed-${seed}`),
          config,
        });
      }
    }
    await mkdir(flags.out, { recursive: true });
    const table = await runSweep(runs, { out: flags.out, jobs, base, models }, io);
    io.stdout.write(tableMarkdown(table));
    return 0;
  },
};
