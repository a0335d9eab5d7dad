// The untrained base: a random-init policy whose vocabulary covers what the env writes (its
// instructions, observations and valid actions along seeded explorations, and the scripted
// expert's responses) and the prompt's template words. Built one way for every caller — the
// CLI's `--base random`, the browser's "untrained" choice, the bench and the soak — so the
// same env, size, context and seed give the same vocabulary and weights everywhere.
import { type ModelSize, modelConfig } from '../core/model/config.js';
import { createPolicy } from '../core/model/params.js';
import { promptTemplateTexts } from '../core/prompt.js';
import type { BaseModel } from '../core/rl/session.js';
import { Rng } from '../core/rng.js';
import { buildVocabulary, Tokenizer } from '../core/tokenizer.js';
import { collectDemos, exploreTexts } from './demos.js';

/**
 * A fresh policy for `env` at `size` with a `context`-token position table; `seed` seeds the
 * explorations and the weights. The caller disposes `policy`.
 */
export function untrainedBase(env: string, size: ModelSize, context: number, seed: number): BaseModel {
  const demos = collectDemos(env, {
    episodes: 100,
    seed,
    noise: 0,
    maxTurns: 10,
    maxActionsPerTurn: 1,
    maxActionsPerTraj: 10,
  });
  const tokenizer = new Tokenizer(
    buildVocabulary([
      ...promptTemplateTexts(),
      ...exploreTexts(env, 200, 40, seed),
      ...demos.flatMap((d) => d.turns.map((t) => t.responseText)),
    ]),
  );
  const policy = createPolicy(modelConfig(size, tokenizer.size, context), new Rng(seed).fork('random-base'));
  return { policy, tokenizer };
}
