// One run in Node, as `train` and a sweep's runs make it: a RunSession (core/rl/runSession.ts)
// over the base model, on this machine's schedule (one thread, or a second worker thread), that
// writes <out>/config.json, metrics.jsonl, events.jsonl, summary.json and checkpoints as it goes,
// resumes from the last checkpoint in an --out that holds a cut-off run, and says its progress
// with an ETA on stderr.
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../core/config.js';
import { summaryFile } from '../core/files/summaryFile.js';
import { verdictText } from '../core/metrics/verdict.js';
import { SecondWorkerLost } from '../core/rl/criticPort.js';
import { RunSession } from '../core/rl/runSession.js';
import { type SecondWorker, scheduleOf, type WorkerChoice } from '../core/rl/schedule.js';
import type { Trainer } from '../core/rl/trainer.js';
import { inProcessPools } from '../envs/pools.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import { loadBase } from '../workers/node/baseModel.js';
import { nodeSecondWorker } from '../workers/node/nodeCritic.js';
import type { CliIo } from './command.js';
import { progressLine } from './progress.js';
import { claimRunDir, type OutMode } from './runDir.js';
import { compressedFiles, RECORDS } from './runRecords.js';

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
  for (const f of ['summary.json', ...RECORDS.flatMap(compressedFiles)])
    await rm(join(out, f), { force: true });
  await rm(join(out, 'checkpoints'), { recursive: true, force: true });
  await mkdir(join(out, 'checkpoints'), { recursive: true });
  await writeFile(join(out, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  for (const f of RECORDS) await writeFile(join(out, f), '');
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
