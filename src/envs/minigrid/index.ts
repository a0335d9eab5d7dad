// The MiniGrid environments as registry specs (ids `minigrid/<upstream id without MiniGrid-
// and -v0>`), and the scripted expert for any of them.
//
// Using the expert generically:
//   const env = makeEnv('minigrid/DoorKey-5x5');      // or spec.make()
//   env.reset(seed);
//   const { action, reason } = minigridExpert(env);  // e.g. "pick up", "the yellow key is 1 step forward, pick up"
//   env.step(action);
import type { EnvSpec, TextEnv } from '../types.js';
import { lavaCrossingFamily, simpleCrossingFamily } from './families/crossing.js';
import { distShiftFamily } from './families/distshift.js';
import { doorKeyFamily } from './families/doorkey.js';
import { dynamicObstaclesFamily } from './families/dynamicobstacles.js';
import { emptyFamily } from './families/empty.js';
import { fetchFamily } from './families/fetch.js';
import { fourRoomsFamily } from './families/fourrooms.js';
import { goToDoorFamily } from './families/gotodoor.js';
import { keyCorridorFamily } from './families/keycorridor.js';
import { lavaGapFamily } from './families/lavagap.js';
import { memoryFamily } from './families/memory.js';
import { multiRoomFamily } from './families/multiroom.js';
import { redBlueDoorsFamily } from './families/redbluedoors.js';
import { unlockFamily } from './families/unlock.js';
import type { Family } from './family.js';
import { type ExpertAction, MiniGridTextEnv } from './textenv.js';

export type { ExpertAction } from './textenv.js';
export { MiniGridTextEnv } from './textenv.js';
export type { MiniGridView } from './viewjson.js';

/** Every MiniGrid family, in menu order. */
// biome-ignore lint/suspicious/noExplicitAny: families differ only in their parameter type
export const minigridFamilies: readonly Family<any>[] = [
  emptyFamily,
  doorKeyFamily,
  fourRoomsFamily,
  lavaGapFamily,
  lavaCrossingFamily,
  simpleCrossingFamily,
  multiRoomFamily,
  unlockFamily,
  keyCorridorFamily,
  goToDoorFamily,
  fetchFamily,
  memoryFamily,
  distShiftFamily,
  dynamicObstaclesFamily,
  redBlueDoorsFamily,
];

function specsOf<P>(family: Family<P>): EnvSpec[] {
  return family.variants.map((v) => {
    const id = `minigrid/${v.name}`;
    return {
      id,
      family: `minigrid/${family.name}`,
      summary: family.summary,
      stochastic: family.stochastic,
      maxSteps: family.maxSteps(v.params),
      make: (): TextEnv => new MiniGridTextEnv(id, family, v.params),
      expert: (env: TextEnv) => minigridExpert(env),
    };
  });
}

/** All registered MiniGrid environments. */
export const minigridEnvs: EnvSpec[] = minigridFamilies.flatMap((f) => specsOf(f));

/**
 * The scripted expert's next action for a MiniGrid env made by one of `minigridEnvs` (after
 * `reset`): the action phrase to pass to `step`, and a one-line reason. Throws for other envs.
 */
export function minigridExpert(env: TextEnv): ExpertAction {
  if (!(env instanceof MiniGridTextEnv)) throw new Error(`minigridExpert: ${env.id} is not a MiniGrid env`);
  return env.expert();
}
