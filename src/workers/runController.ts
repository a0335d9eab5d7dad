// The run inside the train worker: a RunSession (core/rl/runSession.ts) over a config and a base model, iterating
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
import { RunSession } from '../core/rl/runSession.js';
import type { ScheduleFor } from '../core/rl/schedule.js';
import type { TrainerCallbacks } from '../core/rl/trainer.js';
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
  session: RunSession;
  tokenizer: Tokenizer;
  batcher: ReportBatcher;
  backend: string;
  /** The background loop (`loop`): the session's run and what follows it here. */
  loop: Promise<void> | null;
  finished: boolean;
  /** performance.now() of the last checkpoint sent (or of the start), and a held checkpoint. */
  marks: RunMarks;
}

interface RunMarks {
  checkpointAt: number;
  /** A checkpoint waiting for the batch with the rows it includes (see `checkpoint`). */
  checkpoint: CheckpointMessage | null;
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
    const marks: RunMarks = { checkpointAt: performance.now(), checkpoint: null };
    const batcher = this.batcher(runId, marks);
    let session: RunSession;
    try {
      session = new RunSession({
        config,
        base,
        pools: {
          pool: new WorkerEnvPool(shards, 'train', config.env),
          evalPool: new WorkerEnvPool(shards, 'eval', evalEnvId(config.env)),
        },
        callbacks: this.callbacks(runId, batcher),
        ...(second ? { second } : {}),
        ...(resume ? { resume } : {}),
        hooks: this.hooks(runId, report.backend, batcher, marks),
      });
    } finally {
      // The run holds its own copies; the base weights are no longer needed.
      disposeModel(base.policy);
    }
    this.run = {
      runId,
      config,
      session,
      tokenizer: base.tokenizer,
      batcher,
      backend: report.backend,
      loop: null,
      finished: false,
      marks,
    };
    this.post({ type: 'started', id, runId, info, report });
    if (paused) this.progress(runId, session.iteration, config.iterations, 'paused');
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
  private batcher(runId: string, marks: RunMarks): ReportBatcher {
    return new ReportBatcher((b) => {
      this.post({ type: 'reports', runId, ...b });
      const cp = marks.checkpoint;
      marks.checkpoint = null;
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

  /**
   * What this worker adds around each iteration: WebGPU's first iteration compiles its pipelines
   * (minutes on a software adapter), so it says how many are done every COMPILE_REPORT_MS while it
   * runs; the test hook's NaN weights go in before; after it, a recovery checkpoint when the last
   * is RECOVERY_CHECKPOINT_MS old (the trainer checkpoints every `checkpointEvery` itself), and
   * progress when a batch of reports went out.
   */
  private hooks(runId: string, backend: string, batcher: ReportBatcher, marks: RunMarks) {
    return {
      before: (s: RunSession) => {
        const it = s.iteration;
        let ticker: ReturnType<typeof setInterval> | undefined;
        if (it === 0 && backend === 'webgpu') {
          const say = () => this.progress(runId, it, s.config.iterations, 'compiling', pipelinesCompiled());
          say();
          ticker = setInterval(say, COMPILE_REPORT_MS);
        }
        if (this.poison > 0) {
          this.poison--;
          this.poisonWeights(s);
        }
        return () => clearInterval(ticker);
      },
      after: async (s: RunSession) => {
        const every = s.config.checkpointEvery;
        const periodic = every > 0 && s.iteration % every === 0;
        if (!periodic && performance.now() - marks.checkpointAt >= RECOVERY_CHECKPOINT_MS)
          await this.checkpoint(runId, s.iteration);
        if (batcher.maybeFlush() || s.iteration === 1)
          this.progress(runId, s.iteration, s.config.iterations, 'running');
      },
    };
  }

  /** Test hook: the next `count` iterations start from NaN policy weights (3+ pause the run). */
  injectNonFinite(count: number): void {
    this.poison = Math.max(0, Math.floor(count));
  }

  private poisonWeights(s: RunSession): void {
    const v = modelVariables(s.models.policy)[0];
    if (v) v.assign(tf.tidy(() => tf.fill(v.shape, Number.NaN)));
  }

  private async loop(r: ActiveRun): Promise<void> {
    const s = r.session;
    try {
      // Repeated non-finite iterations pause the trainer until a live change (core/rl/trainer).
      if ((await s.run()) === 'halted') throw new Error(s.haltReason ?? 'the run halted');
    } catch (err) {
      r.batcher.flush();
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
    if (s.done && !s.stopRequested) await this.finish(r, 'completed');
    else if (!s.stopRequested) this.progress(r.runId, s.iteration, s.config.iterations, 'paused');
  }

  /** Starts (or continues) iterating in the background. */
  resume(): void {
    const r = this.active();
    if (r.loop) return;
    this.progress(r.runId, r.session.iteration, r.session.config.iterations, 'running');
    r.loop = this.loop(r).finally(() => {
      r.loop = null;
    });
  }

  /** Resolves once the iteration in flight has ended and its reports are sent. */
  async pause(): Promise<void> {
    const r = this.active();
    if (!r.loop) return;
    r.session.requestPause();
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
    const s = r.session;
    await s.step();
    r.batcher.flush();
    if (s.done) await this.finish(r, 'completed');
    else this.progress(r.runId, s.iteration, s.config.iterations, 'paused');
  }

  /** Ends the run: final checkpoint and summary. */
  async stop(): Promise<void> {
    const r = this.active();
    r.session.requestStop();
    if (r.loop) await r.loop;
    await this.finish(r, 'stopped');
  }

  setLive(changes: Partial<Config>): void {
    const r = this.active();
    r.session.setLive(changes);
    r.batcher.flush();
  }

  /** Drops the run (no more reports) and frees its tensors. */
  async reset(): Promise<void> {
    const r = this.run;
    if (!r) return;
    r.session.requestStop();
    if (r.loop) await r.loop;
    r.session.dispose();
    this.run = null;
  }

  private async checkpoint(runId: string, iteration: number): Promise<void> {
    const r = this.run;
    if (!r || r.runId !== runId) return;
    r.marks.checkpointAt = performance.now();
    const saved = await r.session.checkpoint(iteration);
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
    else r.marks.checkpoint = msg;
  }

  private async finish(r: ActiveRun, reason: 'completed' | 'stopped'): Promise<void> {
    if (r.finished) return;
    r.finished = true;
    r.batcher.flush();
    const s = r.session;
    await this.checkpoint(r.runId, s.iteration);
    this.post({ type: 'finished', runId: r.runId, summary: s.summary(), reason });
    this.progress(r.runId, s.iteration, s.config.iterations, 'finished');
    s.dispose();
  }
}
