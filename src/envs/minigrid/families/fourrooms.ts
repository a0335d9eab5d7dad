// FourRooms (Farama MiniGrid 3.x `envs/fourrooms.py`).
//
// ## Description
// A 19×19 grid split into four rooms by walls at x = 9 and y = 9, with one random gap in each
// of the four wall segments. The agent (random pose) must reach the goal (random cell).
// Occlusion is on.
//
// ## Mission
// "reach the goal"
//
// ## Observation (seed 0; the first line is the mission, then BALROG's lines)
// Mission: reach the goal
// a wall 3 steps forward
// a wall 3 steps right
//
// ## Actions
// turn left, turn right, go forward (pick up, drop, toggle have no effect).
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps on reaching the goal, 0 otherwise.
//
// ## Termination
// The agent reaches the goal, or maxSteps = 100 steps pass.
//
// ## Registered ids
// minigrid/FourRooms
import { EMPTY, GOAL } from '../constants.js';
import { reachCell } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { Grid } from '../grid.js';
import { placeAgent, placeObj } from '../placement.js';

/** The FourRooms family (no parameters). */
export const fourRoomsFamily: Family<Record<string, never>> = {
  name: 'FourRooms',
  summary: 'Four rooms joined by gaps; find the goal.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [{ name: 'FourRooms', params: {} }],
  maxSteps: () => 100,
  generate(world, rng) {
    const size = 19;
    const g = new Grid(size, size);
    world.grid = g;
    g.horzWall(0, 0);
    g.horzWall(0, size - 1);
    g.vertWall(0, 0);
    g.vertWall(size - 1, 0);
    const roomW = Math.floor(size / 2);
    const roomH = Math.floor(size / 2);
    for (let j = 0; j < 2; j++) {
      for (let i = 0; i < 2; i++) {
        const xL = i * roomW;
        const yT = j * roomH;
        const xR = xL + roomW;
        const yB = yT + roomH;
        if (i + 1 < 2) {
          g.vertWall(xR, yT, roomH);
          g.set(xR, rng.int(yT + 1, yB), EMPTY);
        }
        if (j + 1 < 2) {
          g.horzWall(xL, yB, roomW);
          g.set(rng.int(xL + 1, xR), yB, EMPTY);
        }
      }
    }
    placeAgent(world, rng);
    const [gx, gy] = placeObj(world, rng, GOAL);
    world.mission = 'reach the goal';
    world.maxSteps = 100;
    world.seeThroughWalls = false;
    return { expert: () => reachCell(world, gx, gy, 'the green goal') };
  },
};
