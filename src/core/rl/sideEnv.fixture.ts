// A one-turn toy environment for trainer tests (core tests do not import envs/): the
// observation names the goal's side; "go left"/"go right" is valid; reward 1 for the right side.
// Also the tokenizer whose vocabulary covers its texts, and the tiny run and model the trainer
// tests train on it.
import { type Config, defaultConfig } from '../config.js';
import type { ModelConfig } from '../model/config.js';
import { promptTemplateTexts } from '../prompt.js';
import { buildVocabulary, Tokenizer } from '../tokenizer.js';
import { applyAlgorithm } from './algorithms.js';
import type { EnvLike } from './envPool.js';

export class SideEnv implements EnvLike {
  private side = 'left';
  reset(seed: number): string {
    this.side = seed % 2 === 0 ? 'left' : 'right';
    return `the goal is ${this.side}`;
  }
  step(action: string) {
    const a = action.trim().toLowerCase();
    const valid = a === 'go left' || a === 'go right';
    const success = a === `go ${this.side}`;
    return {
      observation: valid ? 'done' : 'the action was not understood',
      reward: success ? 1 : 0,
      done: true,
      info: { success, actionIsValid: valid, actionIsEffective: valid },
    };
  }
  instruction(): string {
    return 'pick the side of the goal';
  }
}

/** A tokenizer covering SideEnv's texts and the prompt layout. */
export function sideEnvTokenizer(): Tokenizer {
  return new Tokenizer(
    buildVocabulary([
      'the goal is left the goal is right pick the side of the goal done the action was not understood',
      'go left go right I think the goal is left so go left',
      ...promptTemplateTexts(),
    ]),
  );
}

/** One-turn rollout settings for SideEnv at `temperature` (a context of 128, answers of up to 8 tokens). */
export function sideRolloutSettings(temperature: number) {
  return {
    maxTurns: 1,
    maxActionsPerTurn: 1,
    maxActionsPerTraj: 1,
    maxTokensPerTurn: 8,
    contextLength: 128,
    historyTurns: 1,
    temperature,
    formatPenalty: 0.1,
  };
}

/**
 * A tiny one-turn run of `algorithm` on SideEnv for trainer tests: 2 × 4 rollouts of one action,
 * no measurements or checkpoints, 10 iterations at lr 0.01; `overrides` on top.
 */
export function sideConfig(algorithm: Config['algorithm'], overrides: Partial<Config> = {}): Config {
  return {
    ...applyAlgorithm(defaultConfig(), algorithm),
    groups: 2,
    groupSize: 4,
    maxTurns: 1,
    maxActionsPerTurn: 1,
    maxActionsPerTraj: 1,
    maxTokensPerTurn: 6,
    contextLength: 64,
    evalEvery: 0,
    miEvery: 0,
    minibatch: 4,
    iterations: 10,
    checkpointEvery: 0,
    lr: 0.01,
    ...overrides,
  };
}

/** The tiny model (d16, one layer, a context of 64) the trainer tests train on SideEnv. */
export function sideModelConfig(tok: Tokenizer): ModelConfig {
  return { vocabSize: tok.size, dModel: 16, nLayers: 1, nHeads: 2, context: 64, mlpRatio: 2 };
}
