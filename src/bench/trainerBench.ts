// Real trainer iterations (core/rl/trainer.ts held by a RunSession, core/rl/runSession.ts) with the time of each
// iteration split into rollout decoding, env stepping, scoring (old/ref log-probs, values,
// advantages), update and metrics, plus the tensor count and GPU bytes after every iteration.
// The split comes from outside the trainer: the env pool is wrapped to time its calls, the
// first gradient computation of the iteration (tf.engine().gradients, which tf.variableGrads calls) marks the end of
// scoring, and the trainer's own rollout/update durations close the rest.
import * as tf from '@tensorflow/tfjs';
import type { Config } from '../core/config.js';
import type { MetricRow } from '../core/metrics/keys.js';
import { gpuBytes } from '../core/model/gpuMemory.js';
import type { EnvPool, ResetResult, TurnResult } from '../core/rl/envPool.js';
import { RunSession } from '../core/rl/runSession.js';
import type { SecondWorker } from '../core/rl/schedule.js';
import type { BaseModel } from '../core/rl/session.js';
import { FlopMeter } from './flopMeter.js';

export interface IterationSplit {
  rolloutMs: number;
  envMs: number;
  scoringMs: number;
  updateMs: number;
  metricsMs: number;
  totalMs: number;
  /** The policy's and the critic's steps (the trainer's own clocks; beside each other on 2 workers). */
  policyMs: number;
  criticMs: number;
  criticWaitMs: number;
  /** The matrix products' GFLOP of each phase (flopMeter.ts), when metered. */
  rolloutGflop?: number;
  scoringGflop?: number;
  updateGflop?: number;
}

export interface TrainerBench {
  /** Mean over the timed iterations (the first, warm-up iteration excluded). */
  split: IterationSplit;
  perIteration: IterationSplit[];
  memory: { numTensors: number[]; gpuBytes: number[] };
}

/** An env pool that adds up the time spent in its calls. */
class TimedPool implements EnvPool {
  ms = 0;
  constructor(private readonly inner: EnvPool) {}
  get stepsTaken(): number {
    return this.inner.stepsTaken;
  }
  async reset(seeds: readonly number[], instances?: readonly number[]): Promise<ResetResult[]> {
    const t0 = performance.now();
    const r = await this.inner.reset(seeds, instances);
    this.ms += performance.now() - t0;
    return r;
  }
  async step(batch: readonly { slot: number; actions: readonly string[] }[]): Promise<TurnResult[]> {
    const t0 = performance.now();
    const r = await this.inner.step(batch);
    this.ms += performance.now() - t0;
    return r;
  }
}

/** One iteration's split from its row, its clock marks and (when metered) its products' FLOPs. */
function splitOf(
  row: MetricRow,
  at: { t0: number; total: number; envMs: number; firstGrad: number | null },
  meter: FlopMeter | null,
): IterationSplit {
  const { t0, total } = at;
  const rollout = row['time/rolloutMs'] ?? 0;
  const update = row['time/updateMs'] ?? 0;
  // Evaluation and MI (the measurement) run between the rollout and the update.
  const measure = row['time/measureMs'] ?? 0;
  // Scoring ends where the first gradient is taken (no update step at all: all scoring).
  const scoringEnd = at.firstGrad ?? t0 + rollout + measure + update;
  const scoring = Math.max(0, scoringEnd - t0 - rollout - measure);
  return {
    rolloutMs: Math.max(0, rollout - at.envMs),
    envMs: at.envMs,
    scoringMs: scoring,
    // The trainer's update phase starts with scoring: the rest is the update proper.
    updateMs: Math.max(0, update - scoring),
    metricsMs: Math.max(0, total - rollout - update),
    totalMs: total,
    policyMs: row['time/policyMs'] ?? 0,
    criticMs: row['time/criticMs'] ?? 0,
    criticWaitMs: row['time/criticWaitMs'] ?? 0,
    ...(meter
      ? {
          rolloutGflop: meter.between(t0, t0 + rollout) / 1e9,
          scoringGflop: meter.between(t0 + rollout + measure, scoringEnd) / 1e9,
          updateGflop: meter.between(scoringEnd, t0 + total) / 1e9,
        }
      : {}),
  };
}

interface GradEngine {
  gradients(...args: unknown[]): unknown;
}

/**
 * Runs `iterations` iterations (the first is a warm-up, not in the mean) and returns the split
 * and the memory series (one point per iteration). `pools` make fresh envs of the config's id.
 */
export async function benchTrainer(
  config: Config,
  base: BaseModel,
  pools: { pool: EnvPool; evalPool: EnvPool },
  iterations: number,
  /** The run's second worker (default: none, the serial schedule). */
  second?: SecondWorker,
  /** meter: count each phase's matrix-product FLOPs (flopMeter.ts; a little slower). */
  options: { meter?: boolean } = {},
): Promise<TrainerBench> {
  const pool = new TimedPool(pools.pool);
  const session = new RunSession({
    config,
    base,
    pools: { pool, evalPool: pools.evalPool },
    ...(second ? { second } : {}),
  });
  const engine = tf.engine() as unknown as GradEngine;
  const original = engine.gradients;
  let firstGrad: number | null = null;
  engine.gradients = function (this: GradEngine, ...args: unknown[]) {
    firstGrad ??= performance.now();
    return original.apply(this, args);
  };
  const perIteration: IterationSplit[] = [];
  const memory = { numTensors: [] as number[], gpuBytes: [] as number[] };
  const meter = options.meter ? new FlopMeter() : null;
  try {
    for (let i = 0; i < iterations; i++) {
      pool.ms = 0;
      firstGrad = null;
      meter?.clear();
      const t0 = performance.now();
      const row = await session.step();
      const total = performance.now() - t0;
      perIteration.push(splitOf(row, { t0, total, envMs: pool.ms, firstGrad }, meter));
      memory.numTensors.push(tf.memory().numTensors);
      memory.gpuBytes.push(gpuBytes());
    }
  } finally {
    meter?.stop();
    engine.gradients = original;
    session.dispose();
  }
  const timed = perIteration.length > 1 ? perIteration.slice(1) : perIteration;
  const mean = (k: keyof IterationSplit) =>
    timed.reduce((s, r) => s + (r[k] ?? 0), 0) / Math.max(1, timed.length);
  const split: IterationSplit = {
    rolloutMs: mean('rolloutMs'),
    envMs: mean('envMs'),
    scoringMs: mean('scoringMs'),
    updateMs: mean('updateMs'),
    metricsMs: mean('metricsMs'),
    totalMs: mean('totalMs'),
    policyMs: mean('policyMs'),
    criticMs: mean('criticMs'),
    criticWaitMs: mean('criticWaitMs'),
    ...(meter
      ? {
          rolloutGflop: mean('rolloutGflop'),
          scoringGflop: mean('scoringGflop'),
          updateGflop: mean('updateGflop'),
        }
      : {}),
  };
  return { split, perIteration, memory };
}
