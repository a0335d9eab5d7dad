// Memory (Farama MiniGrid 3.x `envs/memory.py`).
//
// ## Description
// The agent starts in a small room (or further along the hallway) where a green key or green
// ball is the cue. A narrow hallway leads to a split with a green key at one end and a green
// ball at the other, in random order. The agent must walk to the cell next to the object that
// matches the cue; the cell next to the other one ends the episode without reward. In the
// Random variants the hallway length is random. "pick up" acts as "toggle". Occlusion is on.
//
// ## Mission
// "go to the matching object at the end of the hallway"
//
// ## Observation (MemoryS7, seed 0, starting at the split; the mission, then BALROG's lines)
// Mission: go to the matching object at the end of the hallway
// a wall 4 steps forward
// a wall 2 steps left
// a wall 2 steps right
// a green key 2 steps left and 3 steps forward
// a green ball 2 steps right and 3 steps forward
//
// ## Actions
// turn left, turn right, go forward, pick up (= toggle), drop, toggle.
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps at the matching end, 0 at the other or on timeout.
//
// ## Termination
// Either end of the split is reached, or maxSteps = 5 · size² steps pass.
//
// ## Registered ids
// minigrid/MemoryS7, MemoryS9, MemoryS11, MemoryS13, MemoryS13Random, MemoryS17Random
import { COLOR, OBJ, pack, WALL } from '../constants.js';
import { reachCell } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { Grid } from '../grid.js';
import { ACT } from '../world.js';

export interface MemoryParams {
  size: number;
  randomLength: boolean;
}

const KEY = pack(OBJ.key, COLOR.green);
const BALL = pack(OBJ.ball, COLOR.green);

/** The Memory family. */
export const memoryFamily: Family<MemoryParams> = {
  name: 'Memory',
  summary: 'Remember the cue object and go to its match at the end of the hallway.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [
    { name: 'MemoryS7', params: { size: 7, randomLength: false } },
    { name: 'MemoryS9', params: { size: 9, randomLength: false } },
    { name: 'MemoryS11', params: { size: 11, randomLength: false } },
    { name: 'MemoryS13', params: { size: 13, randomLength: false } },
    { name: 'MemoryS13Random', params: { size: 13, randomLength: true } },
    { name: 'MemoryS17Random', params: { size: 17, randomLength: true } },
  ],
  maxSteps: (p) => 5 * p.size * p.size,
  generate(world, rng, p) {
    const w = p.size;
    const h = p.size;
    const g = new Grid(w, h);
    world.grid = g;
    g.horzWall(0, 0);
    g.horzWall(0, h - 1);
    g.vertWall(0, 0);
    g.vertWall(w - 1, 0);
    const mid = Math.floor(h / 2);
    const upper = mid - 2;
    const lower = mid + 2;
    const hallwayEnd = p.randomLength ? rng.int(4, w - 2) : w - 3;
    // Start room.
    for (let i = 1; i < 5; i++) {
      g.set(i, upper, WALL);
      g.set(i, lower, WALL);
    }
    g.set(4, upper + 1, WALL);
    g.set(4, lower - 1, WALL);
    // Horizontal hallway.
    for (let i = 5; i < hallwayEnd; i++) {
      g.set(i, upper + 1, WALL);
      g.set(i, lower - 1, WALL);
    }
    // Vertical hallway.
    for (let j = 0; j < h; j++) {
      if (j !== mid) g.set(hallwayEnd, j, WALL);
      g.set(hallwayEnd + 2, j, WALL);
    }
    world.agentX = rng.int(1, hallwayEnd + 1);
    world.agentY = mid;
    world.agentDir = 0;
    const cue = rng.choice([KEY, BALL]);
    g.set(1, mid - 1, cue);
    const others = rng.choice([
      [BALL, KEY],
      [KEY, BALL],
    ]) as [number, number];
    const pos0: [number, number] = [hallwayEnd + 1, mid - 2];
    const pos1: [number, number] = [hallwayEnd + 1, mid + 2];
    g.set(pos0[0], pos0[1], others[0]);
    g.set(pos1[0], pos1[1], others[1]);
    const success: [number, number] = cue === others[0] ? [pos0[0], pos0[1] + 1] : [pos1[0], pos1[1] - 1];
    const failure: [number, number] = cue === others[0] ? [pos1[0], pos1[1] - 1] : [pos0[0], pos0[1] + 1];
    world.mission = 'go to the matching object at the end of the hallway';
    world.maxSteps = 5 * w * h;
    world.seeThroughWalls = false;
    const cueName = cue === KEY ? 'key' : 'ball';
    return {
      beforeStep: (action) => (action === ACT.pickup ? ACT.toggle : action),
      afterStep(_action, out) {
        if (world.agentX === success[0] && world.agentY === success[1]) {
          out.reward = world.successReward();
          out.terminated = true;
        }
        if (world.agentX === failure[0] && world.agentY === failure[1]) {
          out.reward = 0;
          out.terminated = true;
        }
      },
      expert: () =>
        reachCell(
          world,
          success[0],
          success[1],
          `the cue was a green ${cueName}; the cell by the matching ${cueName}`,
          {
            avoid: (x, y) => x === failure[0] && y === failure[1],
          },
        ),
      extra: () => ({ success, failure }),
    };
  },
};
