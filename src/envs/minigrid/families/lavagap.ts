// LavaGap (Farama MiniGrid 3.x `envs/lavagap.py`).
//
// ## Description
// The agent starts at (1, 1) facing right; the goal is in the bottom-right corner. A vertical
// strip of lava at a random column blocks the way except for one gap. Stepping into lava ends
// the episode with no reward. Occlusion is on.
//
// ## Mission
// "avoid the lava and get to the green goal square"
//
// ## Observation (LavaGapS5, seed 0; the first line is the mission, then BALROG's lines)
// Mission: avoid the lava and get to the green goal square
// a wall 1 step left
// a wall 3 steps right
// a red lava 1 step forward
// a green goal 2 steps right and 2 steps forward
// a red lava 2 steps right and 1 step forward
//
// ## Actions
// turn left, turn right, go forward (pick up, drop, toggle have no effect).
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps on reaching the goal; 0 for lava or timeout.
//
// ## Termination
// The goal or lava is entered, or maxSteps = 4 · size² steps pass.
//
// ## Registered ids
// minigrid/LavaGapS5, minigrid/LavaGapS6, minigrid/LavaGapS7
import { EMPTY, GOAL, LAVA } from '../constants.js';
import { reachCell } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { Grid } from '../grid.js';

export interface LavaGapParams {
  size: number;
}

/** The LavaGap family. */
export const lavaGapFamily: Family<LavaGapParams> = {
  name: 'LavaGap',
  summary: 'Cross a lava strip through its single gap to reach the goal.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [5, 6, 7].map((size) => ({ name: `LavaGapS${size}`, params: { size } })),
  maxSteps: (p) => 4 * p.size * p.size,
  generate(world, rng, p) {
    const s = p.size;
    world.grid = new Grid(s, s);
    world.grid.wallRect(0, 0, s, s);
    world.agentX = 1;
    world.agentY = 1;
    world.agentDir = 0;
    world.grid.set(s - 2, s - 2, GOAL);
    const gapX = rng.int(2, s - 2);
    const gapY = rng.int(1, s - 1);
    world.grid.vertWall(gapX, 1, s - 2, LAVA);
    world.grid.set(gapX, gapY, EMPTY);
    world.mission = 'avoid the lava and get to the green goal square';
    world.maxSteps = 4 * s * s;
    world.seeThroughWalls = false;
    return {
      expert: () => reachCell(world, s - 2, s - 2, 'the green goal'),
      extra: () => ({ gap: [gapX, gapY] }),
    };
  },
};
