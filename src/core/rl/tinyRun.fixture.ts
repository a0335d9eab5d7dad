// A tiny run of the trainer on the toy one-turn side task, shared by the trainer tests and the
// algorithm rows' golden file: a 1-layer policy and critic made from the seed, in-process envs.
import * as tf from '@tensorflow/tfjs';
import { type Config, defaultConfig } from '../config.js';
import type { MetricRow } from '../metrics/keys.js';
import { createCritic, createPolicy, disposeModel } from '../model/params.js';
import { Rng } from '../rng.js';
import { applyAlgorithm } from './algorithms.js';
import { InProcessEnvPool } from './envPool.js';
import { SideEnv, sideEnvTokenizer } from './sideEnv.fixture.js';
import { type SampledTrajectory, Trainer, type TrainerEvent } from './trainer.js';

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
  const rng = new Rng(config.seed);
  const mc = {
    vocabSize: tok.size,
    dModel: 16,
    nLayers: 1,
    nHeads: 2,
    context: config.contextLength,
    mlpRatio: 2,
  };
  const policy = createPolicy(mc, rng.fork('policy'));
  const critic = createCritic(mc, rng.fork('critic'));
  const rows: MetricRow[] = [];
  const events: TrainerEvent[] = [];
  const tensors: number[] = [];
  const samples: SampledTrajectory[] = [];
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
    },
  });
  for (let i = 0; i < config.iterations; i++) {
    await trainer.step();
    tensors.push(tf.memory().numTensors);
  }
  trainer.dispose();
  disposeModel(policy);
  disposeModel(critic);
  return { rows, events, tensors, samples };
}
