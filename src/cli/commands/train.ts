// `npm run starpo -- train --env <id> --algo <name> --iters <n> --seed <s> --out <dir>`: one
// run in Node. Every config field is a flag (the field table's `flag` names), or
// comes from `--config file.json`; the base model's episode settings come first, then the
// algorithm's switches, then `--preset`, then the file, then the flags (core/resolve.ts). Writes <out>/config.json,
// metrics.jsonl, events.jsonl, summary.json and checkpoints; progress with ETA on stderr.
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type Config, FIELDS } from '../../core/config.js';
import { summaryFile } from '../../core/files/summaryFile.js';
import { verdictText } from '../../core/metrics/verdict.js';
import { PRESETS } from '../../core/presets.js';
import { SecondWorkerLost } from '../../core/rl/criticPort.js';
import { RunSession } from '../../core/rl/runSession.js';
import { type SecondWorker, scheduleOf, WORKER_CHOICES, type WorkerChoice } from '../../core/rl/schedule.js';
import type { Trainer } from '../../core/rl/trainer.js';
import { inProcessPools } from '../../envs/pools.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { loadBase } from '../../workers/node/baseModel.js';
import { nodeSecondWorker } from '../../workers/node/nodeCritic.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { fieldFlag } from '../fieldFlags.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';
import { progressLine } from '../progress.js';
import { claimRunDir, type OutMode } from '../runDir.js';
import { baseLookup, resolveTrainConfig } from '../trainConfig.js';

/** One flag per config field, named by the field table. */
export const TRAIN_FIELD_FLAGS: FlagSpec[] = FIELDS.map(fieldFlag);

const EXTRA_FLAGS: FlagSpec[] = [
  { name: 'out', kind: 'string', help: 'output directory (required)' },
  { name: 'config', kind: 'string', help: 'a JSON file with config fields (validated)' },
  {
    name: 'preset',
    kind: 'string',
    help: `a playground preset under the file and flags (${Object.keys(PRESETS).join(', ')})`,
  },
  {
    name: 'base',
    kind: 'string',
    help: 'base model: a checkpoint .json path, or "random" (default: the models index)',
  },
  { name: 'models', kind: 'string', help: 'directory of the models index (default public/models)' },
  { name: 'quiet', kind: 'bool', help: 'no progress line' },
  {
    name: 'resume',
    kind: 'bool',
    help: 'continue the run in --out from its last checkpoint (the rows an uninterrupted run writes); a finished run is left as it is',
  },
  {
    name: 'force',
    kind: 'bool',
    help: 'start again from 0 in an --out that holds a run (its files are overwritten)',
  },
  {
    name: 'workers',
    kind: 'string',
    help: 'auto: a second worker thread, when the machine has 2 cores for every run on it, takes the critic (beside the policy) or, without a critic, half of each turn’s sampling, half the reference scoring and the measurements; 1: one thread; 2: two (default auto; the numbers are the same)',
  },
  {
    name: 'lanes',
    kind: 'int',
    help: 'runs sharing this machine, this one included (a sweep sets it; default 1)',
  },
];

const FLAGS = [...EXTRA_FLAGS, ...TRAIN_FIELD_FLAGS];

export const TRAIN_USAGE = `usage: npm run starpo -- train --env <id> --algo <name> --iters <n> --seed <s> --out <dir> [options]\n\n${flagHelp(FLAGS)}`;

async function writeJsonl(path: string, rows: readonly object[]): Promise<void> {
  if (rows.length > 0) await appendFile(path, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

/** A critic worker thread lost mid-run, in words: what went with it and how to run again. */
function criticLost(err: Error, iteration: number): Error {
  return new Error(
    `${err.message}: the critic's weights and Adam state went with its worker thread, so the run stops at iteration ${iteration} (its rows so far are written); run it again with --workers 1 to keep the critic in this thread`,
  );
}

/** Where a run writes, its base model, and its schedule (`workers`, `lanes`: chooseSchedule's). */
export interface TrainOptions {
  out: string;
  /** What to do with an --out that holds a run (runDir.ts): refuse (new), resume, or overwrite (force). */
  mode?: OutMode;
  base?: string;
  models?: string;
  quiet?: boolean;
  workers?: WorkerChoice;
  lanes?: number;
}

/** The run's schedule on this machine (said unless quiet) and, for two workers, its second thread. */
function nodeSchedule(
  config: Config,
  backend: string,
  opts: TrainOptions,
  io: CliIo,
): SecondWorker | undefined {
  const schedule = scheduleOf(config, {
    choice: opts.workers ?? 'auto',
    cores: availableParallelism(),
    lanes: opts.lanes ?? 1,
    backend,
  });
  if (!opts.quiet) io.stderr.write(`schedule: ${schedule.reason}\n`);
  return schedule.workers === 2 ? nodeSecondWorker(backend === 'cpu' ? 'cpu' : 'wasm') : undefined;
}

/** Writes summary.json (and, unless quiet, the verdict in the page's words) at the end of a run. */
async function writeSummary(
  config: Config,
  trainer: Trainer,
  run: { seconds: number; start: number; backend: string; base: string },
  opts: TrainOptions,
  io: CliIo,
): Promise<object> {
  const s = trainer.summary();
  const summary = summaryFile(config, s, {
    iterations: trainer.iteration,
    wallSeconds: run.seconds,
    resumedFrom: run.start,
    backend: run.backend,
    base: run.base,
    fault: trainer.haltReason,
  });
  await writeFile(join(opts.out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  // The verdict in the words the page's banner uses (core/metrics/verdict.ts).
  if (!opts.quiet && s.verdict) io.stderr.write(`${verdictText(s.verdict)}\n`);
  return summary;
}

/** A finished run met by --resume: left as it is, its summary returned. */
async function finishedRun(out: string, io: CliIo): Promise<object> {
  io.stderr.write(`resume: the run in ${out} is finished; nothing to do\n`);
  return JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as object;
}

/** Ctrl-C stops the run after the iteration in progress (its rows and a final checkpoint written). */
function stopOnSigint(session: RunSession, io: CliIo): () => void {
  const onSigint = () => {
    session.requestStop();
    io.stderr.write('\nstopping after this iteration…\n');
  };
  process.once('SIGINT', onSigint);
  return () => process.off('SIGINT', onSigint);
}

/** A fresh run's directory: its config, empty rows and events, an empty folder for checkpoints. */
async function startRunDir(out: string, config: Config): Promise<void> {
  // --force over an earlier run: nothing of it may be read as this one's (its summary, its
  // compressed records, its checkpoints for a later --resume).
  for (const f of ['summary.json', 'metrics.jsonl.gz', 'events.jsonl.gz'])
    await rm(join(out, f), { force: true });
  await rm(join(out, 'checkpoints'), { recursive: true, force: true });
  await mkdir(join(out, 'checkpoints'), { recursive: true });
  await writeFile(join(out, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  for (const f of ['metrics.jsonl', 'events.jsonl']) await writeFile(join(out, f), '');
}

/** Runs one training run to completion (or until SIGINT) and writes its directory. */
export async function runTraining(config: Config, opts: TrainOptions, io: CliIo): Promise<object> {
  const claim = await claimRunDir(opts.out, config, opts.mode ?? 'new', (l) => io.stderr.write(`${l}\n`));
  if (claim === 'finished') return finishedRun(opts.out, io);
  if (!claim) await startRunDir(opts.out, config);
  const backend = await setupNodeBackend(config.backend);
  const second = nodeSchedule(config, backend.backend, opts, io);
  const loaded = await loadBase({
    env: config.env,
    size: config.modelSize,
    base: opts.base,
    modelsDir: opts.models,
    context: config.contextLength,
    seed: config.seed,
  });
  if (loaded.note && !opts.quiet) io.stderr.write(`${loaded.note}\n`);
  const pending: { metrics: object[]; events: object[] } = { metrics: [], events: [] };
  const start = claim?.iteration ?? 0;
  const save = async (s: RunSession, name: string) => {
    const c = await s.checkpoint();
    await writeFile(join(opts.out, 'checkpoints', `${name}.json`), JSON.stringify(c.manifest));
    await writeFile(join(opts.out, 'checkpoints', `${name}.bin`), c.blob);
  };
  let t0 = 0;
  const session = new RunSession({
    config,
    base: loaded.base,
    pools: inProcessPools(config.env),
    callbacks: {
      onMetrics: (row) => pending.metrics.push(row),
      onEvent: (e) => pending.events.push(e),
      onWarning: (w) => io.stderr.write(`warning: ${w}\n`),
    },
    second,
    ...(claim ? { resume: claim } : {}),
    hooks: {
      after: async (s) => {
        await writeJsonl(join(opts.out, 'metrics.jsonl'), pending.metrics.splice(0));
        await writeJsonl(join(opts.out, 'events.jsonl'), pending.events.splice(0));
        // Repeated non-finite iterations: keep the last good weights and stop with the suggestion.
        if (s.haltReason) return;
        if (config.checkpointEvery > 0 && s.iteration % config.checkpointEvery === 0)
          await save(s, `iter-${s.iteration}`);
        if (!opts.quiet)
          io.stderr.write(
            progressLine(
              s.iteration - start,
              config.iterations - start,
              performance.now() - t0,
              s.trainer.detector.success,
            ),
          );
      },
    },
  });
  if (claim && !opts.quiet) io.stderr.write(`resume: from the checkpoint at iteration ${claim.iteration}\n`);
  t0 = performance.now();
  const sigintOff = stopOnSigint(session, io);
  try {
    await session.run();
    await save(session, 'final');
  } catch (err) {
    throw err instanceof SecondWorkerLost ? criticLost(err, session.iteration) : err;
  } finally {
    sigintOff();
    session.dispose();
  }
  if (!opts.quiet) io.stderr.write('\n');
  const run = {
    seconds: (performance.now() - t0) / 1000,
    start,
    backend: backend.backend,
    base: loaded.source,
  };
  const summary = await writeSummary(config, session.trainer, run, opts, io);
  return summary;
}

export const trainCommand: Command = {
  name: 'train',
  summary: 'train one run; writes metrics.jsonl, events.jsonl, summary.json and checkpoints',
  usage: TRAIN_USAGE,
  async run(args, io) {
    const flags = parseFlags(args, FLAGS);
    if (typeof flags.out !== 'string' || flags.out === '') throw new UsageError('--out <dir> is required');
    const base = typeof flags.base === 'string' ? flags.base : undefined;
    const workers = flags.workers ?? 'auto';
    if (!(WORKER_CHOICES as readonly unknown[]).includes(workers))
      throw new UsageError(`--workers: "${workers}" is not one of ${WORKER_CHOICES.join(', ')}`);
    const lanes = flags.lanes ?? 1;
    if (typeof lanes !== 'number' || lanes < 1)
      throw new UsageError(`--lanes: must be at least 1 (got ${lanes})`);
    const config = await resolveTrainConfig(flags, baseLookup(base, flags.models as string | undefined));
    const summary = await runTraining(
      config,
      {
        out: flags.out,
        base,
        models: flags.models as string | undefined,
        quiet: Boolean(flags.quiet),
        mode: outMode(flags),
        workers: workers as WorkerChoice,
        lanes,
      },
      io,
    );
    io.stdout.write(`${JSON.stringify(summary)}\n`);
    if ('fault' in summary) {
      io.stderr.write(`starpo train: ${String(summary.fault)}\n`);
      return 1;
    }
    return 0;
  },
};

/** --resume, --force or neither (both is a usage error). */
function outMode(flags: Record<string, unknown>): OutMode {
  if (flags.resume && flags.force) throw new UsageError('--resume and --force: give one of them');
  return flags.resume ? 'resume' : flags.force ? 'force' : 'new';
}
