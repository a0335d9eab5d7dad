// Empty and Empty-Random (Farama MiniGrid 3.x `envs/empty.py`).
//
// ## Description
// An empty room with the green goal in the bottom-right corner. The agent starts at (1, 1)
// facing right (Empty) or at a random cell and direction (Empty-Random). Walls are
// see-through: no occlusion.
//
// ## Mission
// "get to the green goal square"
//
// ## Observation (Empty-5x5, first step)
// Mission: get to the green goal square
// a wall 3 steps forward
// a wall 1 step left
// a wall 3 steps right
// a green goal 2 steps right and 2 steps forward
//
// ## Actions
// | text        | MiniGrid | effect       |
// |-------------|----------|--------------|
// | turn left   | left     | turn left    |
// | turn right  | right    | turn right   |
// | go forward  | forward  | move forward |
// | pick up, drop, toggle | pickup, drop, toggle | no effect here |
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps on reaching the goal, 0 otherwise.
//
// ## Termination
// The agent reaches the goal, or maxSteps = 4 · size² steps pass (truncation).
//
// ## Registered ids
// minigrid/Empty-5x5, minigrid/Empty-6x6, minigrid/Empty-8x8, minigrid/Empty-16x16,
// minigrid/Empty-Random-5x5, minigrid/Empty-Random-6x6
import { GOAL } from '../constants.js';
import { reachCell } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { Grid } from '../grid.js';
import { placeAgent } from '../placement.js';

export interface EmptyParams {
  size: number;
  /** Random start pose (Empty-Random) instead of (1, 1) facing right. */
  randomStart: boolean;
}

/** The Empty family. */
export const emptyFamily: Family<EmptyParams> = {
  name: 'Empty',
  summary: 'An empty room; walk to the green goal in the far corner.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [
    { name: 'Empty-5x5', params: { size: 5, randomStart: false } },
    { name: 'Empty-6x6', params: { size: 6, randomStart: false } },
    { name: 'Empty-8x8', params: { size: 8, randomStart: false } },
    { name: 'Empty-16x16', params: { size: 16, randomStart: false } },
    { name: 'Empty-Random-5x5', params: { size: 5, randomStart: true } },
    { name: 'Empty-Random-6x6', params: { size: 6, randomStart: true } },
  ],
  maxSteps: (p) => 4 * p.size * p.size,
  generate(world, rng, p) {
    const s = p.size;
    world.grid = new Grid(s, s);
    world.grid.wallRect(0, 0, s, s);
    world.grid.set(s - 2, s - 2, GOAL);
    if (p.randomStart) {
      placeAgent(world, rng);
    } else {
      world.agentX = 1;
      world.agentY = 1;
      world.agentDir = 0;
    }
    world.mission = 'get to the green goal square';
    world.maxSteps = 4 * s * s;
    world.seeThroughWalls = true;
    return { expert: () => reachCell(world, s - 2, s - 2, 'the green goal') };
  },
};
