// DistShift1 and DistShift2 (Farama MiniGrid 3.x `envs/distshift.py`): a test of
// distributional shift — train on one lava layout, test on the other.
//
// ## Description
// A 9×7 room; the agent starts at (1, 1) facing right and the goal is at (7, 1). A lava strip
// covers x = 3..5 on row 1 and again on row 2 (DistShift1) or row 5 (DistShift2). Walls are
// see-through: no occlusion. No randomness.
//
// ## Mission
// "get to the green goal square"
//
// ## Observation (DistShift1; the first line is the mission, then BALROG's lines)
// Mission: get to the green goal square
// a wall 1 step left
// a green goal 6 steps forward
// a red lava 4 steps forward
// a red lava 3 steps forward
// a red lava 2 steps forward
// a red lava 1 step right and 4 steps forward
// a red lava 1 step right and 3 steps forward
// a red lava 1 step right and 2 steps forward
//
// ## Actions
// turn left, turn right, go forward (pick up, drop, toggle have no effect).
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps on reaching the goal; 0 for lava or timeout.
//
// ## Termination
// The goal or lava is entered, or maxSteps = 4 · 9 · 7 = 252 steps pass.
//
// ## Registered ids
// minigrid/DistShift1, minigrid/DistShift2
import { GOAL, LAVA } from '../constants.js';
import { reachCell } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { Grid } from '../grid.js';

export interface DistShiftParams {
  /** Row of the second lava strip. */
  strip2Row: number;
}

/** The DistShift family. */
export const distShiftFamily: Family<DistShiftParams> = {
  name: 'DistShift',
  summary: 'Walk around lava strips whose layout shifts between variants.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [
    { name: 'DistShift1', params: { strip2Row: 2 } },
    { name: 'DistShift2', params: { strip2Row: 5 } },
  ],
  maxSteps: () => 4 * 9 * 7,
  generate(world, _rng, p) {
    const w = 9;
    const h = 7;
    world.grid = new Grid(w, h);
    world.grid.wallRect(0, 0, w, h);
    world.agentX = 1;
    world.agentY = 1;
    world.agentDir = 0;
    world.grid.set(w - 2, 1, GOAL);
    for (let i = 0; i < w - 6; i++) {
      world.grid.set(3 + i, 1, LAVA);
      world.grid.set(3 + i, p.strip2Row, LAVA);
    }
    world.mission = 'get to the green goal square';
    world.maxSteps = 4 * w * h;
    world.seeThroughWalls = true;
    return { expert: () => reachCell(world, w - 2, 1, 'the green goal') };
  },
};
