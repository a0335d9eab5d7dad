// Held-out evaluation: one rollout per held-out start state, greedy and at temperature 1
// (the metrics eval/successRate and eval/sampledSuccessRate). Training seeds are drawn below
// EVAL_SEED_BASE, evaluation seeds start there, so evaluation never sees a training start.
import type { Model } from '../model/params.js';
import { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import type { EnvPool } from './envPool.js';
import { type RolloutSettings, type RolloutStart, rollout, type Trajectory } from './rollout.js';

/** Train seeds are drawn below this; held-out eval seeds start here. */
export const EVAL_SEED_BASE = 1_000_000_000;

export interface EvalResult {
  greedy: number;
  sampled: number;
  /** Mean trajectory reward of the greedy episodes. */
  greedyReturn: number;
  /** Mean trajectory reward of the sampled (T = 1) episodes. */
  sampledReturn: number;
}

const rate = (ts: readonly Trajectory[]) => ts.filter((t) => t.success).length / Math.max(1, ts.length);

/** Success on `episodes` held-out start states; sampling is seeded by `seed`. */
export async function evaluatePolicy(
  policy: Model,
  tok: Tokenizer,
  pool: EnvPool,
  settings: Omit<RolloutSettings, 'temperature'>,
  episodes: number,
  seed: number,
): Promise<EvalResult> {
  const starts: RolloutStart[] = Array.from({ length: episodes }, (_, k) => ({
    group: k,
    seed: EVAL_SEED_BASE + k,
  }));
  const greedy = await rollout(policy, tok, pool, starts, { ...settings, temperature: 0 }, new Rng(seed));
  const sampled = await rollout(
    policy,
    tok,
    pool,
    starts,
    { ...settings, temperature: 1 },
    new Rng(seed + 1),
  );
  const g = greedy.trajectories;
  const sm = sampled.trajectories;
  return {
    greedy: rate(g),
    sampled: rate(sampled.trajectories),
    greedyReturn: g.reduce((s, t) => s + t.reward, 0) / Math.max(1, g.length),
    sampledReturn: sm.reduce((s, t) => s + t.reward, 0) / Math.max(1, sm.length),
  };
}
