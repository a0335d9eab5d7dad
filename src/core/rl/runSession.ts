// One run as every driver holds it — the CLI's train and rerun, the page's train worker, the
// benches and the soak: the trainer over fresh run models (session.ts), continued from a
// checkpoint when given one, and the transport over it: one iteration at a time (`step`), or in
// the background until paused, stopped, done or halted (`run`), live changes and checkpoints
// between iterations. A pause or stop takes effect after the iteration in flight (TensorFlow
// Playground's play/pause/step). What a driver adds — where rows and checkpoints are stored, its
// progress line, the page's compile ticker — hangs on the hooks; the iteration itself is the
// trainer's (trainer.ts), the same for all of them.
import { nextTask } from '../clock.js';
import type { Config } from '../config.js';
import type { RunSummary } from '../metrics/detector.js';
import type { MetricRow } from '../metrics/keys.js';
import type { SavedCheckpoint } from '../model/checkpoint.js';
import type { Tokenizer } from '../tokenizer.js';
import type { EnvPool } from './envPool.js';
import type { SecondWorker } from './schedule.js';
import {
  type BaseModel,
  createTrainer,
  loadRunCheckpoint,
  type RunModels,
  saveRunCheckpoint,
} from './session.js';
import type { Trainer, TrainerCallbacks } from './trainer.js';

/** Where a cut-off run continues: its checkpoint and the rows written before it. */
export interface ResumeFrom {
  /** Iterations done when the checkpoint was taken; the run continues with this one. */
  iteration: number;
  manifest: unknown;
  blob: Uint8Array;
  /** Rows of the iterations before `iteration`, replayed into the echo-trap detector. */
  rows: readonly MetricRow[];
}

/** A driver's additions around each iteration. */
export interface SessionHooks {
  /** Before an iteration starts; what it returns is called once the iteration ends, even by throwing. */
  before?(session: RunSession): (() => void) | undefined;
  /** After an iteration ended, before the next one may start: store its rows, checkpoint, report. */
  after?(session: RunSession): Promise<void> | void;
}

export interface SessionSetup {
  config: Config;
  base: BaseModel;
  pools: { pool: EnvPool; evalPool: EnvPool };
  callbacks?: TrainerCallbacks;
  /** The run's second worker (default: everything in this thread). */
  second?: SecondWorker;
  resume?: ResumeFrom;
  hooks?: SessionHooks;
}

/** Why `run` returned: the planned iterations done, a pause or stop asked for, or a halted trainer. */
export type RunEnd = 'done' | 'paused' | 'stopped' | 'halted';

export class RunSession {
  readonly trainer: Trainer;
  readonly models: RunModels;
  readonly tokenizer: Tokenizer;
  private readonly hooks: SessionHooks;
  private loop: Promise<RunEnd> | null = null;
  private wantPause = false;
  private wantStop = false;
  private disposed = false;

  /** Builds the run; with `resume` it continues from that checkpoint (the base still gives the KL reference). */
  constructor(setup: SessionSetup) {
    const made = createTrainer(setup.config, setup.base, setup.pools, setup.callbacks, setup.second);
    this.trainer = made.trainer;
    this.models = made.models;
    this.tokenizer = setup.base.tokenizer;
    this.hooks = setup.hooks ?? {};
    const r = setup.resume;
    if (!r) return;
    try {
      this.trainer.resumeAt(r.iteration, r.rows, loadRunCheckpoint(this.models, r.manifest, r.blob));
    } catch (err) {
      this.dispose();
      throw err;
    }
  }

  /** The run's config as it stands (live changes included). */
  get config(): Config {
    return this.trainer.config;
  }

  get iteration(): number {
    return this.trainer.iteration;
  }

  /** All planned iterations done. */
  get done(): boolean {
    return this.trainer.iteration >= this.trainer.config.iterations;
  }

  /** Iterating in the background (`run`). */
  get running(): boolean {
    return this.loop !== null;
  }

  get stopRequested(): boolean {
    return this.wantStop;
  }

  /** Why the trainer paused itself (repeated non-finite iterations), until a live change. */
  get haltReason(): string | null {
    return this.trainer.haltReason;
  }

  /** Exactly one iteration, with the hooks around it; not while `run` iterates. */
  async step(): Promise<MetricRow> {
    if (this.loop) throw new Error('pause the run before stepping');
    if (this.done) throw new Error('the run has done all its iterations');
    return this.iterate();
  }

  private async iterate(): Promise<MetricRow> {
    const ended = this.hooks.before?.(this);
    let row: MetricRow;
    try {
      row = await this.trainer.step();
    } finally {
      ended?.();
    }
    await this.hooks.after?.(this);
    return row;
  }

  /**
   * Iterates in the background until the planned count, a pause, a stop or a halt, letting other
   * work (a control message, a signal) in between iterations; a second call returns the same run.
   */
  run(): Promise<RunEnd> {
    if (this.loop) return this.loop;
    this.wantPause = false;
    this.loop = this.iterateUntilEnd().finally(() => {
      this.loop = null;
    });
    return this.loop;
  }

  private async iterateUntilEnd(): Promise<RunEnd> {
    for (;;) {
      if (this.wantStop) return 'stopped';
      if (this.wantPause) return 'paused';
      if (this.done) return 'done';
      if (this.trainer.haltReason) return 'halted';
      await this.iterate();
      await nextTask();
    }
  }

  /** `run` returns after the iteration in flight. */
  requestPause(): void {
    this.wantPause = true;
  }

  /** `run` returns after the iteration in flight, and the run is over. */
  requestStop(): void {
    this.wantStop = true;
  }

  /** Applies changes to the live settings (core/config.ts LIVE_FIELDS) from the next iteration on. */
  setLive(changes: Partial<Config>): void {
    this.trainer.setLive(changes);
  }

  /** The weights and the training state for an exact resume, at `iteration` (default: now). */
  checkpoint(iteration = this.trainer.iteration): Promise<SavedCheckpoint> {
    return saveRunCheckpoint(this.trainer, this.models, this.tokenizer, this.trainer.config, iteration);
  }

  summary(): RunSummary {
    return this.trainer.summary();
  }

  /** Frees the trainer's and the run models' tensors (not the base's); once. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.trainer.dispose();
    this.models.dispose();
  }
}
