// Shared by the env tests: play an episode of random actions (valid ones mixed with junk
// text) until it ends, failing if it runs past maxSteps.
import { Rng } from '../core/rng.js';
import type { EnvSpec } from './types.js';

/** Texts and rewards of one random episode; `junk` are extra invalid action texts to mix in. */
export function randomRollout(spec: EnvSpec, seed: number, policySeed: number, junk: readonly string[]) {
  const env = spec.make();
  const rng = new Rng(policySeed);
  const actions = [...(env.validActions() ?? []), ...junk];
  const texts = [env.reset(seed)];
  const rewards: number[] = [];
  for (let t = 0; t < spec.maxSteps + 1; t++) {
    const r = env.step(actions[rng.int(0, actions.length)] as string);
    texts.push(r.observation);
    rewards.push(r.reward);
    if (r.done) return { texts, rewards, steps: t + 1 };
  }
  throw new Error(`${spec.id}: not done after maxSteps + 1 steps`);
}
