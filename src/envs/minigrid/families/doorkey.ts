// DoorKey (Farama MiniGrid 3.x `envs/doorkey.py`).
//
// ## Description
// A wall splits the room in two. The agent and a yellow key start on the left; a locked yellow
// door in the wall leads to the right side, where the green goal is (bottom-right corner). The
// agent must pick up the key, unlock the door (toggle) and reach the goal. Occlusion is on.
//
// ## Mission
// "use the key to open the door and then get to the goal"
//
// ## Observation (DoorKey-5x5, seed 0; the first line is the mission, then BALROG's lines)
// Mission: use the key to open the door and then get to the goal
// a wall 1 step left
// a locked yellow door 1 step forward
// a yellow key 2 steps right
//
// ## Actions
// | text       | effect |
// |------------|--------|
// | turn left, turn right, go forward | turn, move |
// | pick up    | pick up the key in front |
// | drop       | drop what is carried on the free cell in front |
// | toggle     | unlock and open the door in front with the yellow key |
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps on reaching the goal, 0 otherwise.
//
// ## Termination
// The agent reaches the goal, or maxSteps = 10 · size² steps pass.
//
// ## Registered ids
// minigrid/DoorKey-5x5, minigrid/DoorKey-6x6, minigrid/DoorKey-8x8, minigrid/DoorKey-16x16
import { COLOR, GOAL, NONE, OBJ, pack, STATE, stateOf } from '../constants.js';
import { fetchObject, reachCell } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { Grid } from '../grid.js';
import { placeAgent, placeObj } from '../placement.js';

export interface DoorKeyParams {
  size: number;
}

const KEY = pack(OBJ.key, COLOR.yellow);
const LOCKED_DOOR = pack(OBJ.door, COLOR.yellow, STATE.locked);

/** The DoorKey family. */
export const doorKeyFamily: Family<DoorKeyParams> = {
  name: 'DoorKey',
  summary: 'Pick up the key, unlock the door, reach the goal behind it.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [5, 6, 8, 16].map((size) => ({ name: `DoorKey-${size}x${size}`, params: { size } })),
  maxSteps: (p) => 10 * p.size * p.size,
  generate(world, rng, p) {
    const s = p.size;
    world.grid = new Grid(s, s);
    world.grid.wallRect(0, 0, s, s);
    world.grid.set(s - 2, s - 2, GOAL);
    const splitIdx = rng.int(2, s - 2);
    world.grid.vertWall(splitIdx, 0);
    placeAgent(world, rng, [0, 0], [splitIdx, s]);
    const doorIdx = rng.int(1, s - 2);
    world.grid.set(splitIdx, doorIdx, LOCKED_DOOR);
    placeObj(world, rng, KEY, [0, 0], [splitIdx, s]);
    world.mission = 'use the key to open the door and then get to the goal';
    world.maxSteps = 10 * s * s;
    world.seeThroughWalls = false;
    return {
      expert() {
        const doorLocked = stateOf(world.grid.get(splitIdx, doorIdx)) === STATE.locked;
        if (doorLocked && world.carrying === NONE) {
          const { width, cells } = world.grid;
          const k = cells.indexOf(KEY);
          if (k >= 0) return fetchObject(world, k % width, Math.floor(k / width));
        }
        return reachCell(world, s - 2, s - 2, 'the green goal');
      },
      extra: () => ({ door: [splitIdx, doorIdx] }),
    };
  },
};
