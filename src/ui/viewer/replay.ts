// Replays a sampled trajectory in the UI thread to get the env's view() at every turn: the
// trainer's sample carries text, seed and actions, and envs are deterministic per seed (all
// but Dynamic-Obstacles), so reset(seed) + the recorded actions rebuild each state. A replay
// whose observations stop matching the recorded ones says from which turn.

import { applyActions } from '../../core/rl/envPool.js';
import type { SampledTrajectory } from '../../core/rl/trainer.js';
import { makeEnv } from '../../envs/registry.js';

export interface Replay {
  /** views[i] = the state the agent saw at turn i; views[turns] = the state after the last turn. */
  views: unknown[];
  /** First turn whose replayed observation differs from the recorded one; null when all match. */
  mismatchAt: number | null;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Rebuilds the views of `sample` in a fresh `envId`. */
export function replayTrajectory(envId: string, sample: SampledTrajectory): Replay {
  const env = makeEnv(envId);
  let observation = env.reset(sample.seed);
  const views: unknown[] = [];
  let mismatchAt: number | null = null;
  sample.turns.forEach((turn, i) => {
    if (mismatchAt === null && norm(observation) !== norm(turn.observation)) mismatchAt = i;
    views.push(env.view());
    observation = applyActions(env, turn.actions, observation).observation;
  });
  views.push(env.view());
  return { views, mismatchAt };
}
