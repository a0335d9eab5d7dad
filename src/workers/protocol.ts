// The typed messages between the UI thread, the train worker and the env workers.
// Every message is a discriminated union member; each side switches exhaustively on `type`.
// Requests carry an `id` and get exactly one reply with that id; the train worker's run
// reports (metrics, samples, events, progress) carry no id and are batched at most a few
// times a second.

import type { Config } from '../core/config.js';
import type { RunSummary } from '../core/metrics/detector.js';
import type { MetricRow } from '../core/metrics/keys.js';
import type { CheckpointManifest } from '../core/model/checkpoint.js';
import type { ModelSize } from '../core/model/config.js';
import type { ResetResult, TurnResult } from '../core/rl/envPool.js';
import type { SampledTrajectory, TrainerEvent } from '../core/rl/trainer.js';
import type { FirstTurn } from '../core/rl/viewerSample.js';
import type { BackendPreference, BackendReport, StartupStatus } from './backendInfo.js';

/** Where the run's starting weights come from. */
export type BaseChoice =
  /** A random-init policy over a vocabulary built from the env's own texts ("untrained base"). */
  | { kind: 'fresh' }
  /** A shipped base model (public/models): absolute URLs of its manifest and blob. */
  | { kind: 'url'; id: string; manifestUrl: string; blobUrl: string }
  /** A checkpoint the user imported or saved earlier. */
  | { kind: 'checkpoint'; id: string; manifest: unknown; blob: Uint8Array };

/** UI → train worker. `id` pairs a request with its reply. */
export type ToTrainWorker =
  /** `size`: the model size the start-up probe times for 'auto' (default nano). */
  | { type: 'init'; id: number; backend: BackendPreference; size?: ModelSize }
  | { type: 'selfCheck'; id: number; backends: BackendPreference[]; steps: number; seed: number }
  /** Hands over one MessagePort per env worker (transferred). */
  | { type: 'attachEnvPorts'; id: number; ports: MessagePort[] }
  /**
   * Builds a run; it starts iterating unless `paused`. With `resume` the run continues a run a
   * fault cut off: weights from its last checkpoint, at that checkpoint's iteration.
   */
  | {
      type: 'start';
      id: number;
      runId: string;
      config: Config;
      base: BaseChoice;
      paused: boolean;
      resume?: ResumePoint;
      /** Runs side by side on this machine, this one included (its schedule leaves cores to them). */
      lanes?: number;
    }
  | { type: 'pause'; id: number }
  | { type: 'resume'; id: number }
  /** One iteration while paused (or right after a paused start). */
  | { type: 'stepOne'; id: number }
  /** Ends the run: final checkpoint, summary, `finished`. */
  | { type: 'stop'; id: number }
  /** Drops the run without saving anything more. */
  | { type: 'reset'; id: number }
  | { type: 'setLive'; id: number; changes: Partial<Config> }
  /**
   * The frozen base model's first turns on `seeds` at `iteration` (the reasoning panel, any
   * iteration), from the run's base; refused while a run is iterating.
   */
  | {
      type: 'baseReasoning';
      id: number;
      config: Config;
      base: BaseChoice;
      seeds: number[];
      iteration: number;
    }
  /** Test hook: injects a fault (`count` poisoned iterations for 'nonFinite'). */
  | { type: 'injectFault'; id: number; fault: InjectedFault; count: number };

/** Where a restarted run continues: its last checkpoint and the metric rows before it. */
export interface ResumePoint {
  /** Iterations done when the checkpoint was taken; the run continues with this one. */
  iteration: number;
  manifest: unknown;
  blob: Uint8Array;
  /** Rows of the iterations before `iteration`, replayed into the echo-trap detector. */
  rows: MetricRow[];
}

/**
 * Faults the test hooks inject in the train worker: lose the WebGPU device (`device.destroy()`),
 * throw an uncaught error, or poison the policy weights with NaN before `count` iterations.
 */
export type InjectedFault = 'loseDevice' | 'crash' | 'nonFinite' | 'crashSecond';

/** What went wrong on the GPU: the device was lost, or it ran out of memory / failed inside. */
export type GpuFaultKind = 'lost' | 'oom' | 'internal' | 'error';

/** Losses of a short training run on one backend, for cross-checking backends. */
export interface SelfCheckResult {
  backend: string;
  losses: number[];
  ms: number;
}

/** What the run is doing; `compiling` is the first iteration on WebGPU (shader pipelines). */
export type RunPhase = 'loading' | 'compiling' | 'running' | 'paused' | 'finished';

/** What the run started from, for the UI and the stored run. */
export interface RunStartInfo {
  baseId: string;
  baseLabel: string;
  untrained: boolean;
  parameters: number;
  vocabSize: number;
  context: number;
  /** The run's schedule in one line, e.g. "2 workers: the critic beside the policy (…)". */
  schedule?: string;
}

/** Train worker → UI. */
export type FromTrainWorker =
  | { type: 'ready'; id: number; report: BackendReport }
  | { type: 'selfCheck'; id: number; results: SelfCheckResult[]; maxAbsDiff: number }
  | { type: 'ack'; id: number }
  | { type: 'baseReasoning'; id: number; groups: FirstTurn[][] }
  | { type: 'started'; id: number; runId: string; info: RunStartInfo; report: BackendReport }
  | { type: 'error'; id: number | null; message: string }
  /** One batch of run reports (rows, events, newest sample) — stored in one IndexedDB transaction. */
  | {
      type: 'reports';
      runId: string;
      rows: MetricRow[];
      events: TrainerEvent[];
      samples: SampledTrajectory[];
    }
  | {
      type: 'progress';
      runId: string;
      iteration: number;
      planned: number;
      phase: RunPhase;
      /** While `compiling`: the GPU pipelines compiled so far. */
      compiled?: number;
    }
  /**
   * The weights after `iteration` iterations. Sent after the `reports` holding the rows of every
   * iteration before it, so a run resumed from it has all its earlier rows.
   */
  | {
      type: 'checkpoint';
      runId: string;
      iteration: number;
      manifest: CheckpointManifest;
      blob: Uint8Array;
    }
  | { type: 'finished'; runId: string; summary: RunSummary; reason: 'completed' | 'stopped' }
  | { type: 'runError'; runId: string; message: string }
  /**
   * Something the person should know about a run that goes on with its numbers unchanged: its
   * second worker failed and this worker took that worker's share.
   */
  | { type: 'notice'; runId: string; message: string }
  /**
   * The run's second worker failed while it held the critic: the UI side restarts the workers and
   * resumes the run from its last checkpoint (the critic's state went with the worker).
   */
  | { type: 'secondWorkerFault'; runId: string; message: string }
  /** The WebGPU device was lost or failed: the UI side restarts the worker on WASM. */
  | { type: 'gpuFault'; kind: GpuFaultKind; message: string }
  /** Start-up progress: the backend probe and the shader warm-up (workers/startup.ts). */
  | { type: 'startup'; status: StartupStatus };

/** Why the UI side restarted the train worker. */
export type FaultKind = 'gpu-lost' | 'gpu-error' | 'crash' | 'second-worker';

/** A GPU fault: the run moves to WASM (the others restart on the run's own backend). */
export const isGpuFault = (kind: FaultKind): boolean => kind === 'gpu-lost' || kind === 'gpu-error';

/**
 * Run reports as listeners receive them: the worker's messages as they came (a `reports` batch
 * whole, so it is stored in one transaction), plus the recovery notes the client adds itself.
 */
export type RunReport =
  | Extract<
      FromTrainWorker,
      { type: 'reports' | 'progress' | 'checkpoint' | 'finished' | 'runError' | 'notice' }
    >
  /** A fault was seen; the workers are being restarted (`runId` null when no run was active). */
  | { type: 'recovering'; runId: string | null; fault: FaultKind; message: string }
  /** The run continues in a fresh worker from `iteration` (its last checkpoint, or 0). */
  | {
      type: 'recovered';
      runId: string | null;
      fault: FaultKind;
      message: string;
      iteration: number;
      report: BackendReport;
    };

/** Train worker → env worker, over a MessagePort. Slots are the shard's own (0-based). */
export type ToEnvShard =
  | { type: 'reset'; id: number; pool: string; envId: string; seeds: number[]; instances: number[] }
  | { type: 'step'; id: number; pool: string; batch: { slot: number; actions: string[] }[] };

/** Env worker → train worker. */
export type FromEnvShard =
  | { type: 'reset'; id: number; results: ResetResult[] }
  | { type: 'step'; id: number; results: TurnResult[] }
  | { type: 'error'; id: number; message: string };

/** UI → env worker: the port its shard answers on. */
export type ToEnvWorker = { type: 'connect'; port: MessagePort };

/** Throws at compile time when a switch over a union misses a member. */
export function assertNever(x: never): never {
  throw new Error(`unhandled message: ${JSON.stringify(x)}`);
}
