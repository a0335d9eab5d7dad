// The registered FrozenLake environments (RAGEN's FrozenLake on gymnasium's rules) and their
// scripted expert.
//
// | id                             | ice                                   |
// |--------------------------------|---------------------------------------|
// | frozenlake/FrozenLake-4x4      | slippery: intended move w.p. 1/3 (paper, gymnasium) |
// | frozenlake/FrozenLake-4x4-slip80 | slippery: intended move w.p. 0.8 (RAGEN's later code) |
// | frozenlake/FrozenLake-4x4-det  | not slippery                          |
// Every id: 4 × 4 maps, 80% frozen, 10 actions per episode.
//
// Using the expert:
//   const env = makeEnv('frozenlake/FrozenLake-4x4');
//   env.reset(seed);
//   const { action, reason } = frozenLakeExpert(env);  // e.g. "Down", "Down gives the best chance …"
//   env.step(action);
import type { EnvSpec, TextEnv } from '../types.js';
import { FrozenLakeEnv, type FrozenLakeOptions } from './env.js';

export { FrozenLakeEnv, type FrozenLakeOptions, type FrozenLakeView, LAKE_LEGEND } from './env.js';
export { generateMap, type LakeMap } from './map.js';

function spec(id: string, summary: string, options: FrozenLakeOptions): EnvSpec {
  const pIntended = options.pIntended ?? 1 / 3;
  return {
    id,
    family: 'frozenlake',
    summary,
    stochastic: pIntended < 1,
    maxSteps: options.maxSteps ?? 10,
    make: (): TextEnv => new FrozenLakeEnv({ ...options, id }),
    expert: (env: TextEnv) => frozenLakeExpert(env),
  };
}

/** Every registered FrozenLake id. */
export const frozenLakeEnvs: EnvSpec[] = [
  spec(
    'frozenlake/FrozenLake-4x4',
    'FrozenLake: reach the goal on slippery ice (moves go as intended 1/3 of the time), 10 actions',
    {},
  ),
  spec(
    'frozenlake/FrozenLake-4x4-slip80',
    'FrozenLake with moves going as intended 80% of the time (RAGEN’s later setting), 10 actions',
    { pIntended: 0.8 },
  ),
  spec('frozenlake/FrozenLake-4x4-det', 'FrozenLake on non-slippery ice: reach the goal, 10 actions', {
    pIntended: 1,
  }),
];

/**
 * The scripted expert's next action for an env made by one of `frozenLakeEnvs` (after `reset`):
 * the action maximising the chance of reaching the goal within the moves left (value iteration
 * over the slip model; a shortest safe path on non-slippery ice) and a one-line reason. Throws for
 * other envs.
 */
export function frozenLakeExpert(env: TextEnv): { action: string; reason: string } {
  if (!(env instanceof FrozenLakeEnv)) throw new Error(`frozenLakeExpert: ${env.id} is not a FrozenLake env`);
  return env.expert();
}
