// KeyCorridor (Farama MiniGrid 3.x `envs/keycorridor.py`).
//
// ## Description
// A RoomGrid of R rows × 3 columns of rooms of side S. The middle column is opened into a
// corridor. A locked door of a random colour leads into a random room of the right column,
// which holds a ball of a random colour; the key of the door's colour lies in a random room of
// the left column. The agent starts in the middle of the corridor, and unlocked closed doors
// are added until every room is reachable. The agent must fetch the key, unlock the door, and
// pick up the ball (dropping the key first). Occlusion is on.
//
// ## Mission
// "pick up the {color} ball"
//
// ## Observation (KeyCorridorS3R1, seed 0; the first line is the mission, then BALROG's lines)
// Mission: pick up the red ball
// a wall 1 step forward
// a locked purple door 1 step left
// a closed red door 1 step right
//
// ## Actions
// turn left, turn right, go forward, pick up, drop, toggle.
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps when the ball is picked up, 0 otherwise.
//
// ## Termination
// The ball is picked up, or maxSteps = 30 · S² steps pass.
//
// ## Registered ids
// minigrid/KeyCorridorS3R1, S3R2, S3R3, S4R3, S5R3, S6R3
import { COLOR, COLOR_NAMES, colorOf, NONE, OBJ, pack, STATE, stateOf } from '../constants.js';
import { dropSafely, fetchObject, findCell, goAndAct, objectName } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { facing } from '../planner.js';
import { RoomGrid } from '../roomgrid.js';
import { ACT } from '../world.js';

export interface KeyCorridorParams {
  roomSize: number;
  numRows: number;
}

const CONFIGS: readonly [number, number][] = [
  [3, 1],
  [3, 2],
  [3, 3],
  [4, 3],
  [5, 3],
  [6, 3],
];

/** The KeyCorridor family. */
export const keyCorridorFamily: Family<KeyCorridorParams> = {
  name: 'KeyCorridor',
  summary: 'Find the key, unlock the side room and pick up the ball inside.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: CONFIGS.map(([s, r]) => ({ name: `KeyCorridorS${s}R${r}`, params: { roomSize: s, numRows: r } })),
  maxSteps: (p) => 30 * p.roomSize * p.roomSize,
  generate(world, rng, p) {
    const rooms = new RoomGrid(world, rng, p.roomSize, p.numRows, 3);
    for (let j = 1; j < p.numRows; j++) rooms.removeWall(1, j, 3);
    const roomIdx = rng.int(0, p.numRows);
    const door = rooms.addDoor(2, roomIdx, 2, null, true);
    const ballColor = rng.choice(COLOR_NAMES);
    const ball = pack(OBJ.ball, COLOR[ballColor]);
    rooms.addObject(2, roomIdx, ball);
    const key = pack(OBJ.key, colorOf(door.code));
    rooms.addObject(0, rng.int(0, p.numRows), key);
    rooms.placeAgent(1, Math.floor(p.numRows / 2));
    rooms.connectAll();
    world.mission = `pick up the ${ballColor} ball`;
    world.maxSteps = 30 * p.roomSize * p.roomSize;
    const doorLocked = () => stateOf(world.grid.get(door.x, door.y)) === STATE.locked;
    return {
      afterStep(action, out) {
        if (action === ACT.pickup && world.carrying === ball) {
          out.reward = world.successReward();
          out.terminated = true;
        }
      },
      expert() {
        const ballAt = findCell(world, (c) => c === ball);
        if (doorLocked()) {
          if (world.carrying === key) {
            const what = objectName(world.grid.get(door.x, door.y));
            return goAndAct(world, facing(door.x, door.y), what, door.x, door.y, ACT.toggle);
          }
          if (world.carrying !== NONE) return dropSafely(world, door.x, door.y);
          const keyAt = findCell(world, (c) => c === key);
          if (keyAt) return fetchObject(world, keyAt[0], keyAt[1]);
        }
        if (!ballAt) return { action: ACT.left, reason: 'the ball is nowhere to be seen, turn left' };
        if (world.carrying !== NONE) return dropSafely(world, ballAt[0], ballAt[1]);
        return fetchObject(world, ballAt[0], ballAt[1]);
      },
      extra: () => ({ door: [door.x, door.y] }),
    };
  },
};
