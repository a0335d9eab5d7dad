// An environment that returns a NaN reward (a bug in an env, or a corrupted worker message)
// must stop the rollout with a message naming the action, not deep inside prompt formatting.
// The sampler is replaced by a scripted one so every turn sends an action to the pool.
import { describe, expect, it, vi } from 'vitest';
import type { Model } from '../core/model/params.js';
import { promptTemplateTexts } from '../core/prompt.js';
import { type EnvLike, InProcessEnvPool } from '../core/rl/envPool.js';
import { rollout } from '../core/rl/rollout.js';
import { Rng } from '../core/rng.js';
import { buildVocabulary, Tokenizer } from '../core/tokenizer.js';

vi.mock('../core/model/sampling.js', () => ({
  sampleBatch: async (_m: unknown, tok: Tokenizer, prompts: readonly number[][]) =>
    prompts.map(() => {
      const text = '<think> go </think> <answer> go left </answer>';
      const ids = tok.encode(text);
      return {
        ids,
        text,
        logps: new Float32Array(ids.length),
        sampleLogps: new Float32Array(ids.length),
        stopped: true,
      };
    }),
}));

class RewardEnv implements EnvLike {
  constructor(private readonly reward: number) {}
  reset(): string {
    return 'the goal is left';
  }
  step() {
    return {
      observation: 'done',
      reward: this.reward,
      done: true,
      info: { success: false, actionIsValid: true, actionIsEffective: true },
    };
  }
  instruction(): string {
    return 'pick the side of the goal';
  }
}

const tok = new Tokenizer(
  buildVocabulary(['the goal is left pick the side of the goal done go', ...promptTemplateTexts()]),
);
const settings = {
  maxTurns: 2,
  maxActionsPerTurn: 1,
  maxActionsPerTraj: 2,
  maxTokensPerTurn: 16,
  contextLength: 128,
  historyTurns: 2,
  temperature: 1,
  formatPenalty: 0.1,
};
const policy = {} as Model;

describe('rollout with a faulty environment', () => {
  it('a finite reward goes through', async () => {
    const { trajectories } = await rollout(
      policy,
      tok,
      new InProcessEnvPool(() => new RewardEnv(0.5)),
      [{ group: 0, seed: 1 }],
      settings,
      new Rng(1),
    );
    expect(trajectories[0]!.reward).toBe(0.5);
    expect(trajectories[0]!.turns[0]!.actions).toEqual(['go left']);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])(
    'a reward of %s is refused naming the action',
    async (r) => {
      await expect(
        rollout(
          policy,
          tok,
          new InProcessEnvPool(() => new RewardEnv(r)),
          [{ group: 0, seed: 1 }],
          settings,
          new Rng(1),
        ),
      ).rejects.toThrow(`environment returned a non-finite reward (${r}) for action "go left"`);
    },
  );
});
