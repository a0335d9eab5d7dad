// RedBlueDoors (Farama MiniGrid 3.x `envs/redbluedoors.py`).
//
// ## Description
// A 2·size × size grid with a size × size room in its middle. The room has a closed red door
// at a random row of its left wall and a closed blue door at a random row of its right wall.
// The agent starts at a random pose inside the room and must open the red door, then the
// blue one. Occlusion is on.
//
// ## Mission
// "open the red door then the blue door"
//
// ## Observation (RedBlueDoors-6x6, seed 0; the first line is the mission, then BALROG's lines)
// Mission: open the red door then the blue door
// a wall 4 steps forward
// a wall 1 step left
// a closed red door 1 step left and 2 steps forward
//
// ## Actions
// turn left, turn right, go forward, pick up, drop, toggle.
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps when the blue door is opened after the red one; 0 when the
// blue door is opened first.
//
// ## Termination
// The blue door is opened, the red door is opened while the blue one is open, or
// maxSteps = 20 · size² steps pass.
//
// ## Registered ids
// minigrid/RedBlueDoors-6x6, minigrid/RedBlueDoors-8x8
import { COLOR, OBJ, pack, STATE, stateOf } from '../constants.js';
import { goAndAct, objectName } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { Grid } from '../grid.js';
import { placeAgent } from '../placement.js';
import { facing } from '../planner.js';
import { ACT } from '../world.js';

export interface RedBlueDoorsParams {
  size: number;
}

/** The RedBlueDoors family. */
export const redBlueDoorsFamily: Family<RedBlueDoorsParams> = {
  name: 'RedBlueDoors',
  summary: 'Open the red door, then the blue door.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [6, 8].map((size) => ({ name: `RedBlueDoors-${size}x${size}`, params: { size } })),
  maxSteps: (p) => 20 * p.size * p.size,
  generate(world, rng, p) {
    const s = p.size;
    const half = Math.floor(s / 2);
    world.grid = new Grid(2 * s, s);
    world.grid.wallRect(0, 0, 2 * s, s);
    world.grid.wallRect(half, 0, s, s);
    placeAgent(world, rng, [half, 0], [s, s]);
    const red: [number, number] = [half, rng.int(1, s - 1)];
    world.grid.set(red[0], red[1], pack(OBJ.door, COLOR.red, STATE.closed));
    const blue: [number, number] = [half + s - 1, rng.int(1, s - 1)];
    world.grid.set(blue[0], blue[1], pack(OBJ.door, COLOR.blue, STATE.closed));
    world.mission = 'open the red door then the blue door';
    world.maxSteps = 20 * s * s;
    world.seeThroughWalls = false;
    const isOpen = (d: [number, number]) => stateOf(world.grid.get(d[0], d[1])) === STATE.open;
    let redBefore = false;
    let blueBefore = false;
    return {
      beforeStep(action) {
        redBefore = isOpen(red);
        blueBefore = isOpen(blue);
        return action;
      },
      afterStep(_action, out) {
        if (isOpen(blue)) {
          out.reward = redBefore ? world.successReward() : 0;
          out.terminated = true;
        } else if (isOpen(red) && blueBefore) {
          out.reward = 0;
          out.terminated = true;
        }
      },
      expert() {
        const door = isOpen(red) ? blue : red;
        const what = objectName(world.grid.get(door[0], door[1]));
        return goAndAct(world, facing(door[0], door[1]), what, door[0], door[1], ACT.toggle, {
          openDoors: false,
        });
      },
      extra: () => ({ red, blue }),
    };
  },
};
