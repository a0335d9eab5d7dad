// The run inside the train worker: builds the trainer from a config and a base model, iterates
// in the background while control requests (pause, resume, step, stop, reset, live changes)
// are answered between iterations, and reports through a ReportBatcher so the UI receives at
// most a few messages a second. Transport semantics follow TensorFlow Playground's
// play/pause/step: a pause or stop takes effect after the iteration in flight.
// Faults (issue 10): an iteration that fails on the GPU goes to `onGpuFault`, a second worker lost
// with the run's critic to `secondWorkerFault` (the UI side restarts the workers; a resumed run
// continues as the uninterrupted one would: the checkpoint carries the counters, random streams
// and Adam's moments). A checkpoint goes out at least every RECOVERY_CHECKPOINT_MS, and only
// after the rows of the iterations it includes (held until their batch is sent).
import * as tf from '@tensorflow/tfjs';
import type { Config } from '../core/config.js';
import { runErrorText } from '../core/model/memory.js';
import { disposeModel, modelVariables } from '../core/model/params.js';
import { SecondWorkerLost } from '../core/rl/criticPort.js';
import type { ScheduleFor } from '../core/rl/schedule.js';
import { createTrainer, loadRunCheckpoint, type RunModels, saveRunCheckpoint } from '../core/rl/session.js';
import type { Trainer, TrainerCallbacks } from '../core/rl/trainer.js';
import { baseFirstTurns, type FirstTurn } from '../core/rl/viewerSample.js';
import type { Tokenizer } from '../core/tokenizer.js';
import { evalEnvId } from '../envs/registry.js';
import type { BackendPreference, BackendReport } from './backendInfo.js';
import { loadBase } from './baseModel.js';
import { isGpuError } from './gpuWatch.js';
import type { BaseChoice, FromTrainWorker, ResumePoint, RunPhase } from './protocol.js';
import { ReportBatcher } from './reportBatcher.js';
import { type ShardLink, WorkerEnvPool } from './workerEnvPool.js';

interface ActiveRun {
  runId: string;
  config: Config;
  trainer: Trainer;
  models: RunModels;
  tokenizer: Tokenizer;
  batcher: ReportBatcher;
  backend: string;
  loop: Promise<void> | null;
  wantPause: boolean;
  wantStop: boolean;
  finished: boolean;
  disposed: boolean;
  checkpointAt: number; // performance.now() of the last checkpoint sent (or of the start)
  /** A checkpoint waiting for the batch with the rows it includes (see `checkpoint`). */
  held: { checkpoint: CheckpointMessage | null };
}

type CheckpointMessage = Extract<FromTrainWorker, { type: 'checkpoint' }>;

/** A run sends a checkpoint at least this often (ms), so a restart after a fault loses little. */
export const RECOVERY_CHECKPOINT_MS = 30_000;

/** How often the first WebGPU iteration reports its pipelines compiled so far (ms). */
export const COMPILE_REPORT_MS = 2000;

/** The webgpu backend's compiled pipelines (its pipeline cache), 0 on other backends. */
function pipelinesCompiled(): number {
  const cache = (tf.backend() as unknown as { pipelineCache?: Record<string, unknown> }).pipelineCache;
  return cache ? Object.keys(cache).length : 0;
}

type Post = (msg: FromTrainWorker, transfer?: Transferable[]) => void;

/** Owns at most one run at a time. */
export class RunController {
  private run: ActiveRun | null = null;
  /** Test hook: iterations still to start from NaN-poisoned policy weights. */
  private poison = 0;

  /**
   * `onGpuFault` receives the message of an iteration that failed on the GPU (or after
   * `gpuLost()` said the device is gone); without it such failures are ordinary run errors.
   */
  constructor(
    private readonly post: Post,
    private readonly shards: () => ShardLink[],
    private readonly ensureBackend: (pref: BackendPreference) => Promise<BackendReport>,
    private readonly onGpuFault?: (message: string) => void,
    private readonly gpuLost: () => boolean = () => false,
    /** A run's schedule and its critic's host (default: one worker, the critic in this one). */
    private readonly scheduleFor: ScheduleFor = () => ({}),
  ) {}

  /**
   * Builds a run (dropping any previous one) and starts it unless `paused`; with `resume` it
   * continues from that checkpoint (the base still gives the KL reference).
   */
  async start(
    id: number,
    runId: string,
    config: Config,
    choice: BaseChoice,
    paused: boolean,
    resume?: ResumePoint,
    lanes = 1,
  ): Promise<void> {
    await this.reset();
    const report = await this.ensureBackend(config.backend);
    const shards = this.shards();
    if (shards.length === 0) throw new Error('no env workers are attached');
    this.progress(runId, 0, config.iterations, 'loading');
    const { base, info: loaded } = await loadBase(choice, config);
    const { schedule, second } = this.scheduleFor(config, report.backend, lanes);
    const info = schedule ? { ...loaded, schedule: schedule.reason } : loaded;
    const held: ActiveRun['held'] = { checkpoint: null };
    const batcher = this.batcher(runId, held);
    let models: RunModels;
    let trainer: Trainer;
    try {
      const made = createTrainer(
        config,
        base,
        {
          pool: new WorkerEnvPool(shards, 'train', config.env),
          evalPool: new WorkerEnvPool(shards, 'eval', evalEnvId(config.env)),
        },
        this.callbacks(runId, batcher),
        second,
      );
      trainer = made.trainer;
      models = made.models;
      if (resume) {
        try {
          trainer.resumeAt(
            resume.iteration,
            resume.rows,
            loadRunCheckpoint(models, resume.manifest, resume.blob),
          );
        } catch (err) {
          trainer.dispose();
          models.dispose();
          throw err;
        }
      }
    } finally {
      // The run holds its own copies; the base weights are no longer needed.
      disposeModel(base.policy);
    }
    this.run = {
      runId,
      config,
      trainer,
      models,
      tokenizer: base.tokenizer,
      batcher,
      backend: report.backend,
      loop: null,
      wantPause: false,
      wantStop: false,
      finished: false,
      disposed: false,
      checkpointAt: performance.now(),
      held,
    };
    this.post({ type: 'started', id, runId, info, report });
    if (paused) this.progress(runId, trainer.iteration, config.iterations, 'paused');
    else this.resume();
  }

  /** What the trainer reports, and where each report goes. */
  private callbacks(runId: string, batcher: ReportBatcher): TrainerCallbacks {
    return {
      onMetrics: (row) => batcher.addRow(row),
      onEvent: (e) => batcher.addEvent(e),
      onSample: (s) => batcher.addSample(s),
      onCheckpoint: (iteration) => this.checkpoint(runId, iteration),
      // The run goes on (its numbers unchanged); the page and the console say what changed.
      onWarning: (message) => {
        console.warn(message);
        this.post({ type: 'notice', runId, message });
      },
    };
  }

  /**
   * The run's report batcher: one message per batch, so the UI stores each batch in one IndexedDB
   * transaction; a held checkpoint follows the batch that carries the rows before it.
   */
  private batcher(runId: string, held: ActiveRun['held']): ReportBatcher {
    return new ReportBatcher((b) => {
      this.post({ type: 'reports', runId, ...b });
      const cp = held.checkpoint;
      held.checkpoint = null;
      if (cp) this.post(cp, [cp.blob.buffer as ArrayBuffer]);
    });
  }

  private progress(
    runId: string,
    iteration: number,
    planned: number,
    phase: RunPhase,
    compiled?: number,
  ): void {
    this.post({
      type: 'progress',
      runId,
      iteration,
      planned,
      phase,
      ...(compiled !== undefined ? { compiled } : {}),
    });
  }

  private active(): ActiveRun {
    if (!this.run || this.run.finished) throw new Error('no run is active: press Start');
    return this.run;
  }

  private async iterate(r: ActiveRun): Promise<void> {
    const it = r.trainer.iteration;
    // WebGPU's first iteration compiles its pipelines (minutes on a software adapter): say how
    // many are done, every COMPILE_REPORT_MS, while it runs.
    let ticker: ReturnType<typeof setInterval> | undefined;
    if (it === 0 && r.backend === 'webgpu') {
      const say = () => this.progress(r.runId, it, r.config.iterations, 'compiling', pipelinesCompiled());
      say();
      ticker = setInterval(say, COMPILE_REPORT_MS);
    }
    if (this.poison > 0) {
      this.poison--;
      this.poisonWeights(r);
    }
    const every = r.trainer.config.checkpointEvery;
    try {
      await r.trainer.step();
    } finally {
      clearInterval(ticker);
    }
    // The trainer checkpoints every `checkpointEvery`; in between, one every RECOVERY_CHECKPOINT_MS.
    const periodic = every > 0 && r.trainer.iteration % every === 0;
    if (!periodic && performance.now() - r.checkpointAt >= RECOVERY_CHECKPOINT_MS)
      await this.checkpoint(r.runId, r.trainer.iteration);
    if (r.batcher.maybeFlush() || it === 0)
      this.progress(r.runId, r.trainer.iteration, r.trainer.config.iterations, 'running');
  }

  /** Test hook: the next `count` iterations start from NaN policy weights (3+ pause the run). */
  injectNonFinite(count: number): void {
    this.poison = Math.max(0, Math.floor(count));
  }

  private poisonWeights(r: ActiveRun): void {
    const v = modelVariables(r.models.policy)[0];
    if (v) v.assign(tf.tidy(() => tf.fill(v.shape, Number.NaN)));
  }

  private async loop(r: ActiveRun): Promise<void> {
    try {
      while (!r.wantPause && !r.wantStop && r.trainer.iteration < r.trainer.config.iterations) {
        // Repeated non-finite iterations pause the trainer until a live change (core/rl/trainer).
        if (r.trainer.haltReason) throw new Error(r.trainer.haltReason);
        await this.iterate(r);
        // Let control messages in between iterations.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    } catch (err) {
      r.batcher.flush();
      r.wantPause = true;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof SecondWorkerLost) {
        // The critic's state went with its worker: the UI side resumes from the last checkpoint.
        this.post({
          type: 'secondWorkerFault',
          runId: r.runId,
          message: `the run’s second worker, which held its critic, failed (${message})`,
        });
        return;
      }
      if (this.onGpuFault && r.backend === 'webgpu' && (this.gpuLost() || isGpuError(err))) {
        // The UI side restarts the worker on WASM from the last checkpoint; nothing more here.
        this.onGpuFault(`a training iteration failed on the GPU: ${message}`);
        return;
      }
      this.post({
        type: 'runError',
        runId: r.runId,
        message: runErrorText(err, r.config, r.backend, r.tokenizer.size),
      });
    }
    r.batcher.flush();
    if (r.trainer.iteration >= r.trainer.config.iterations && !r.wantStop) await this.finish(r, 'completed');
    else if (!r.wantStop) this.progress(r.runId, r.trainer.iteration, r.trainer.config.iterations, 'paused');
  }

  /** Starts (or continues) iterating in the background. */
  resume(): void {
    const r = this.active();
    if (r.loop) return;
    r.wantPause = false;
    this.progress(r.runId, r.trainer.iteration, r.trainer.config.iterations, 'running');
    r.loop = this.loop(r).finally(() => {
      r.loop = null;
    });
  }

  /** Resolves once the iteration in flight has ended and its reports are sent. */
  async pause(): Promise<void> {
    const r = this.active();
    if (!r.loop) return;
    r.wantPause = true;
    await r.loop;
  }

  /**
   * The base model's first turns on `seeds` at `iteration`, sampled now (reasoningOf's on-demand
   * half, core/rl/viewerSample.ts): from a fresh copy of the run's base, on the env workers' own
   * slots, while no run iterates (a paused or ended run, or none).
   */
  async baseReasoning(
    config: Config,
    choice: BaseChoice,
    seeds: number[],
    iteration: number,
  ): Promise<FirstTurn[][]> {
    if (this.run?.loop) throw new Error('pause the run first: the worker is training');
    await this.ensureBackend(config.backend);
    const shards = this.shards();
    if (shards.length === 0) throw new Error('no env workers are attached');
    const { base } = await loadBase(choice, config);
    try {
      const pool = new WorkerEnvPool(shards, 'base', config.env);
      return await baseFirstTurns(base.policy, base.tokenizer, pool, seeds, config, iteration);
    } finally {
      disposeModel(base.policy);
    }
  }

  /** Exactly one iteration; only while paused. */
  async stepOne(): Promise<void> {
    const r = this.active();
    if (r.loop) throw new Error('pause the run before stepping');
    if (r.trainer.iteration >= r.trainer.config.iterations)
      throw new Error('the run has done all its iterations');
    await this.iterate(r);
    r.batcher.flush();
    if (r.trainer.iteration >= r.trainer.config.iterations) await this.finish(r, 'completed');
    else this.progress(r.runId, r.trainer.iteration, r.trainer.config.iterations, 'paused');
  }

  /** Ends the run: final checkpoint and summary. */
  async stop(): Promise<void> {
    const r = this.active();
    r.wantStop = true;
    if (r.loop) await r.loop;
    await this.finish(r, 'stopped');
  }

  setLive(changes: Partial<Config>): void {
    const r = this.active();
    r.trainer.setLive(changes);
    r.batcher.flush();
  }

  /** Drops the run (no more reports) and frees its tensors. */
  async reset(): Promise<void> {
    const r = this.run;
    if (!r) return;
    r.wantStop = true;
    if (r.loop) await r.loop;
    this.dispose(r);
    this.run = null;
  }

  private async checkpoint(runId: string, iteration: number): Promise<void> {
    const r = this.run;
    if (!r || r.runId !== runId) return;
    r.checkpointAt = performance.now();
    const saved = await saveRunCheckpoint(r.trainer, r.models, r.tokenizer, r.config, iteration);
    const msg: CheckpointMessage = {
      type: 'checkpoint',
      runId,
      iteration,
      manifest: saved.manifest,
      blob: saved.blob,
    };
    // A checkpoint never reaches the UI before the rows of the iterations it includes: were the
    // worker killed in between, the run would resume at `iteration` with those rows missing (a
    // gap in the chart, a stored record one iteration ahead). While reports are buffered it is
    // held and sent right after their batch; a newer checkpoint replaces a held one.
    if (r.batcher.empty) this.post(msg, [saved.blob.buffer as ArrayBuffer]);
    else r.held.checkpoint = msg;
  }

  private async finish(r: ActiveRun, reason: 'completed' | 'stopped'): Promise<void> {
    if (r.finished) return;
    r.finished = true;
    r.batcher.flush();
    await this.checkpoint(r.runId, r.trainer.iteration);
    this.post({ type: 'finished', runId: r.runId, summary: r.trainer.summary(), reason });
    this.progress(r.runId, r.trainer.iteration, r.trainer.config.iterations, 'finished');
    this.dispose(r);
  }

  private dispose(r: ActiveRun): void {
    if (r.disposed) return;
    r.disposed = true;
    r.trainer.dispose();
    r.models.dispose();
  }
}
