// Everything a run needs, made from a config and a base model — shared by the CLI and the
// browser's train worker so both start runs the same way. The critic starts from the base
// policy's trunk with a fresh value head (RAGEN's critic is initialised from the same LM).
import type * as tf from '@tensorflow/tfjs';
import type { Config } from '../config.js';
import { loadCheckpoint, type SavedCheckpoint, saveCheckpoint } from '../model/checkpoint.js';
import { cloneModel, copyWeights, createCritic, disposeModel, type Model } from '../model/params.js';
import { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import { usesCritic } from './algorithms.js';
import type { EnvPool } from './envPool.js';
import type { SecondWorker } from './schedule.js';
import { parseTrainerPosition, Trainer, type TrainerCallbacks, type TrainingState } from './trainer.js';

export interface BaseModel {
  policy: Model;
  tokenizer: Tokenizer;
}

export interface RunModels {
  policy: Model;
  critic: Model | null;
  dispose(): void;
}

/** A trainable copy of the base policy and, when the algorithm needs one, a critic. */
export function createRunModels(config: Config, base: BaseModel): RunModels {
  if (config.contextLength > base.policy.config.context) {
    throw new Error(
      `contextLength ${config.contextLength} exceeds the base model's context of ${base.policy.config.context} tokens`,
    );
  }
  const policy = cloneModel(base.policy, true);
  let critic: Model | null = null;
  if (usesCritic(config)) {
    critic = createCritic(base.policy.config, new Rng(config.seed).fork('critic'));
    for (const name of critic.names) {
      const src = base.policy.weights[name];
      if (src) (critic.weights[name] as tf.Variable).assign(src);
    }
  }
  return {
    policy,
    critic,
    dispose() {
      disposeModel(policy);
      if (critic) disposeModel(critic);
    },
  };
}

/**
 * A trainer over fresh run models, with its `second` worker if it has one (default: all in this
 * thread); dispose both the trainer and `models` when done.
 */
export function createTrainer(
  config: Config,
  base: BaseModel,
  pools: { pool: EnvPool; evalPool: EnvPool },
  callbacks: TrainerCallbacks = {},
  second?: SecondWorker,
): { trainer: Trainer; models: RunModels } {
  const models = createRunModels(config, base);
  const trainer = new Trainer({
    config,
    tokenizer: base.tokenizer,
    policy: models.policy,
    critic: models.critic,
    pool: pools.pool,
    evalPool: pools.evalPool,
    callbacks,
    ...(second ? { criticHost: second.criticHost, referenceHost: second.referenceHost } : {}),
  });
  return { trainer, models };
}

/**
 * A run's checkpoint as every runner takes one (the CLI, the browser's train worker, the bench):
 * the weights, the trainer's state for an exact resume (optimizer moments, random streams) and
 * where the run stands.
 */
export async function saveRunCheckpoint(
  trainer: Trainer,
  models: RunModels,
  tokenizer: Tokenizer,
  config: Config,
  iteration = trainer.iteration,
): Promise<SavedCheckpoint> {
  return saveCheckpoint({
    policy: models.policy,
    ...(models.critic ? { critic: models.critic } : {}),
    tokenizer,
    meta: { env: config.env, iteration, seed: config.seed, algorithm: config.algorithm },
    training: await trainer.trainingState(),
  });
}

/**
 * Copies the weights of a checkpoint into the run's models (shapes must match) and returns the
 * run's training state when the checkpoint carries it (older ones do not).
 */
export function loadRunCheckpoint(
  models: RunModels,
  manifest: unknown,
  blob: Uint8Array,
): TrainingState | undefined {
  const loaded = loadCheckpoint(manifest, blob);
  try {
    copyWeights(models.policy, loaded.policy);
    if (models.critic && loaded.critic) copyWeights(models.critic, loaded.critic);
    const t = loaded.training;
    return t ? { position: parseTrainerPosition(t.position), optimizers: t.optimizers } : undefined;
  } finally {
    disposeModel(loaded.policy);
    if (loaded.critic) disposeModel(loaded.critic);
  }
}
