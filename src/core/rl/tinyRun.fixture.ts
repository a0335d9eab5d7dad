// A tiny run of the trainer on the toy one-turn side task, shared by the trainer tests and the
// algorithm rows' golden file: a 1-layer policy and critic made from the seed, in-process envs;
// and the side-task trainer those and the fault, frozen-control and second-worker tests build.
import * as tf from '@tensorflow/tfjs';
import { type Config, defaultConfig } from '../config.js';
import type { MetricRow } from '../metrics/keys.js';
import type { ModelConfig } from '../model/config.js';
import { createCritic, createPolicy, disposeModel, type Model } from '../model/params.js';
import { Rng } from '../rng.js';
import { applyAlgorithm } from './algorithms.js';
import { InProcessEnvPool } from './envPool.js';
import { SideEnv, sideEnvTokenizer } from './sideEnv.fixture.js';
import { type SampledTrajectory, Trainer, type TrainerEvent, type TrainerSetup } from './trainer.js';

export const tok = sideEnvTokenizer();

export function tinyConfig(algorithm: Config['algorithm'], overrides: Partial<Config> = {}): Config {
  return {
    ...applyAlgorithm(defaultConfig(), algorithm),
    groups: 2,
    groupSize: 4,
    maxTurns: 2,
    maxActionsPerTurn: 1,
    maxActionsPerTraj: 2,
    maxTokensPerTurn: 8,
    contextLength: 128,
    evalEvery: 2,
    evalEpisodes: 4,
    miEvery: 2,
    miSamples: 4,
    minibatch: 4,
    iterations: 3,
    checkpointEvery: 0,
    ...overrides,
  };
}

export async function runTiny(
  config: Config,
): Promise<{ rows: MetricRow[]; events: TrainerEvent[]; tensors: number[]; samples: SampledTrajectory[] }> {
  const mc = {
    vocabSize: tok.size,
    dModel: 16,
    nLayers: 1,
    nHeads: 2,
    context: config.contextLength,
    mlpRatio: 2,
  };
  const run = sideTrainer(config, mc);
  const tensors: number[] = [];
  for (let i = 0; i < config.iterations; i++) {
    await run.trainer.step();
    tensors.push(tf.memory().numTensors);
  }
  run.dispose();
  return { rows: run.rows, events: run.events, tensors, samples: run.samples };
}

/** A trainer on SideEnv with its models, and what it reported. */
export interface SideTrainer {
  trainer: Trainer;
  policy: Model;
  /** Null when the run was made without one. */
  critic: Model | null;
  rows: MetricRow[];
  events: TrainerEvent[];
  samples: SampledTrajectory[];
  warnings: string[];
  /** Frees the trainer and both models. */
  dispose(): void;
}

/**
 * A trainer of `config` on SideEnv (in-process pools for its rollouts and its evaluation), its
 * policy and critic made on `mc` from the config's seed, recording every report; `critic: false`
 * makes none, `setup` adds to the trainer's setup (a second worker's hosts).
 */
export function sideTrainer(
  config: Config,
  mc: ModelConfig,
  opts: { critic?: boolean; setup?: Partial<TrainerSetup> } = {},
): SideTrainer {
  const rng = new Rng(config.seed);
  const policy = createPolicy(mc, rng.fork('policy'));
  const critic = opts.critic === false ? null : createCritic(mc, rng.fork('critic'));
  const rows: MetricRow[] = [];
  const events: TrainerEvent[] = [];
  const samples: SampledTrajectory[] = [];
  const warnings: string[] = [];
  const trainer = new Trainer({
    config,
    tokenizer: tok,
    policy,
    critic,
    pool: new InProcessEnvPool(() => new SideEnv()),
    evalPool: new InProcessEnvPool(() => new SideEnv()),
    callbacks: {
      onMetrics: (r) => rows.push(r),
      onEvent: (e) => events.push(e),
      onSample: (x) => samples.push(x),
      onWarning: (w) => warnings.push(w),
    },
    ...opts.setup,
  });
  return {
    trainer,
    policy,
    critic,
    rows,
    events,
    samples,
    warnings,
    dispose() {
      trainer.dispose();
      disposeModel(policy);
      if (critic) disposeModel(critic);
    },
  };
}

/** Every weight of `m`, read. */
export function snapshot(m: Model): Promise<Float32Array[]> {
  return Promise.all(m.names.map(async (n) => (await m.weights[n]!.data()) as Float32Array));
}
