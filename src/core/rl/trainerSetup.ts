// What a trainer is made from and reports through (trainer.ts): its setup — config, tokenizer,
// models, where the critic or the reference's copy runs, env pools — its callbacks, and the events
// it sends besides metric rows.
import type { Config } from '../config.js';
import type { EchoEvent } from '../metrics/detector.js';
import type { MetricRow } from '../metrics/keys.js';
import type { Model } from '../model/params.js';
import type { Tokenizer } from '../tokenizer.js';
import type { CriticHostFactory } from './criticHost.js';
import type { EnvPool } from './envPool.js';
import type { ReferenceHostFactory } from './referenceHost.js';
import type { SampledTrajectory } from './viewerSample.js';

export type TrainerEvent =
  | ({ type: 'echo' } & EchoEvent)
  | {
      type: 'error';
      iteration: number;
      message: string;
      /** Non-finite iterations in a row, this one included. */
      consecutive: number;
      /** Set on the MAX_CONSECUTIVE_FAULTS-th in a row: the run stops until a live setting changes. */
      pause?: boolean;
      /** What to change, e.g. "lower the learning rate (now 0.01) to 0.003". */
      suggestion?: string;
    }
  | { type: 'live'; iteration: number; changes: Partial<Config> };

export interface TrainerCallbacks {
  onMetrics?(row: MetricRow): void;
  onEvent?(event: TrainerEvent): void;
  onSample?(sample: SampledTrajectory): void;
  onCheckpoint?(iteration: number): void | Promise<void>;
  /** Something the run went on past and a person may want to know (e.g. its second worker failed). */
  onWarning?(message: string): void;
}

export interface TrainerSetup {
  config: Config;
  tokenizer: Tokenizer;
  /** The policy to train (the base model's weights); the trainer clones the reference from it. */
  policy: Model;
  /** A critic of the same shape, when the algorithm uses one. */
  critic: Model | null;
  /** Where the critic runs (default: in this thread, after the policy; criticHost.ts). */
  criticHost?: CriticHostFactory;
  /**
   * For a run without a critic: its second worker, a copy of the reference that scores a share of
   * its groups and takes the measurements beside this thread (referenceHost.ts; default: none).
   */
  referenceHost?: ReferenceHostFactory;
  pool: EnvPool;
  evalPool: EnvPool;
  callbacks?: TrainerCallbacks;
}
