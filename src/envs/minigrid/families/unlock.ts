// Unlock (Farama MiniGrid 3.x `envs/unlock.py`).
//
// ## Description
// Two 6×6 rooms side by side (a RoomGrid of 1 row × 2 columns). A locked door of a random
// colour joins them; the key of that colour lies in the agent's (left) room. The task is to
// open the door. Occlusion is on.
//
// ## Mission
// "open the door"
//
// ## Observation (seed 0; the first line is the mission, then BALROG's lines)
// Mission: open the door
// a wall 4 steps forward
// a wall 3 steps left
// a wall 2 steps right
// a red key 1 step left and 3 steps forward
//
// ## Actions
// turn left, turn right, go forward, pick up, drop, toggle.
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps when a toggle leaves the door open, 0 otherwise.
//
// ## Termination
// The door is opened, or maxSteps = 8 · 6² = 288 steps pass.
//
// ## Registered ids
// minigrid/Unlock
import { colorOf, NONE, OBJ, pack, STATE, stateOf } from '../constants.js';
import { fetchObject, goAndAct, objectName } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { facing } from '../planner.js';
import { RoomGrid } from '../roomgrid.js';
import { ACT } from '../world.js';

const ROOM = 6;

/** The Unlock family (no parameters). */
export const unlockFamily: Family<Record<string, never>> = {
  name: 'Unlock',
  summary: 'Pick up the key and open the locked door.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [{ name: 'Unlock', params: {} }],
  maxSteps: () => 8 * ROOM * ROOM,
  generate(world, rng) {
    const rooms = new RoomGrid(world, rng, ROOM, 1, 2);
    const door = rooms.addDoor(0, 0, 0, null, true);
    const key = pack(OBJ.key, colorOf(door.code));
    const [kx, ky] = rooms.addObject(0, 0, key);
    rooms.placeAgent(0, 0);
    world.mission = 'open the door';
    world.maxSteps = 8 * ROOM * ROOM;
    const doorOpen = () => stateOf(world.grid.get(door.x, door.y)) === STATE.open;
    return {
      afterStep(action, out) {
        if (action === ACT.toggle && doorOpen()) {
          out.reward = world.successReward();
          out.terminated = true;
        }
      },
      expert() {
        if (world.carrying === NONE && world.grid.get(kx, ky) === key) return fetchObject(world, kx, ky);
        const what = objectName(world.grid.get(door.x, door.y));
        return goAndAct(world, facing(door.x, door.y), what, door.x, door.y, ACT.toggle, {
          openDoors: false,
        });
      },
      extra: () => ({ door: [door.x, door.y] }),
    };
  },
};
