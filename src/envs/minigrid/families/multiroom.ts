// MultiRoom (Farama MiniGrid 3.x `envs/multiroom.py`).
//
// ## Description
// A chain of rooms of random size (4..maxRoomSize) laid out on a 25×25 grid by recursive
// random placement; consecutive rooms share a wall with a closed (unlocked) door, each door's
// colour differing from the previous one's. The agent starts at a random pose in the first
// room, the goal lies at a random cell of the last. Occlusion is on.
//
// ## Mission
// "traverse the rooms to get to the goal"
//
// ## Observation (MultiRoom-N2-S4, seed 0; the first line is the mission, then BALROG's lines)
// Mission: traverse the rooms to get to the goal
// a wall 2 steps forward
// a wall 1 step left
// a wall 2 steps right
// a closed purple door 2 steps right and 1 step forward
//
// ## Actions
// turn left, turn right, go forward, toggle (opens and closes doors); pick up and drop have
// no effect.
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps on reaching the goal, 0 otherwise.
//
// ## Termination
// The agent reaches the goal, or maxSteps = 20 · maxNumRooms steps pass.
//
// ## Registered ids
// minigrid/MultiRoom-N2-S4, minigrid/MultiRoom-N4-S5 (upstream's fixed v1: four rooms),
// minigrid/MultiRoom-N6
import type { Rng } from '../../../core/rng.js';
import { COLOR, COLOR_NAMES, type ColorName, GOAL, OBJ, pack, STATE, WALL } from '../constants.js';
import { reachCell } from '../expert.js';
import { type Family, STANDARD_ACTIONS } from '../family.js';
import { Grid } from '../grid.js';
import { PlacementError, placeAgent, placeObj } from '../placement.js';

export interface MultiRoomParams {
  minNumRooms: number;
  maxNumRooms: number;
  maxRoomSize: number;
}

interface RoomRect {
  top: [number, number];
  size: [number, number];
  entryDoor: [number, number];
}

const SIZE = 25;

/** `_placeRoom`: tries to add a room entered through `entryDoor` on wall `entryWall`, then recurses. */
function placeRoom(
  rng: Rng,
  numLeft: number,
  rooms: RoomRect[],
  minSz: number,
  maxSz: number,
  entryWall: number,
  entryDoor: [number, number],
): boolean {
  const sizeX = rng.int(minSz, maxSz + 1);
  const sizeY = rng.int(minSz, maxSz + 1);
  let topX: number;
  let topY: number;
  const [ex, ey] = entryDoor;
  if (rooms.length === 0) {
    [topX, topY] = entryDoor;
  } else if (entryWall === 0) {
    topX = ex - sizeX + 1;
    topY = rng.int(ey - sizeY + 2, ey);
  } else if (entryWall === 1) {
    topX = rng.int(ex - sizeX + 2, ex);
    topY = ey - sizeY + 1;
  } else if (entryWall === 2) {
    topX = ex;
    topY = rng.int(ey - sizeY + 2, ey);
  } else {
    topX = rng.int(ex - sizeX + 2, ex);
    topY = ey;
  }
  if (topX < 0 || topY < 0) return false;
  if (topX + sizeX > SIZE || topY + sizeY >= SIZE) return false;
  // Must not intersect earlier rooms (the previous one shares the door wall).
  for (const room of rooms.slice(0, -1)) {
    const nonOverlap =
      topX + sizeX < room.top[0] ||
      room.top[0] + room.size[0] <= topX ||
      topY + sizeY < room.top[1] ||
      room.top[1] + room.size[1] <= topY;
    if (!nonOverlap) return false;
  }
  rooms.push({ top: [topX, topY], size: [sizeX, sizeY], entryDoor });
  if (numLeft === 1) return true;
  for (let tries = 0; tries < 8; tries++) {
    const walls = [0, 1, 2, 3].filter((w) => w !== entryWall);
    const exitWall = rng.choice(walls);
    const nextEntryWall = (exitWall + 2) % 4;
    let exitDoor: [number, number];
    if (exitWall === 0) exitDoor = [topX + sizeX - 1, topY + rng.int(1, sizeY - 1)];
    else if (exitWall === 1) exitDoor = [topX + rng.int(1, sizeX - 1), topY + sizeY - 1];
    else if (exitWall === 2) exitDoor = [topX, topY + rng.int(1, sizeY - 1)];
    else exitDoor = [topX + rng.int(1, sizeX - 1), topY];
    if (placeRoom(rng, numLeft - 1, rooms, minSz, maxSz, nextEntryWall, exitDoor)) break;
  }
  return true;
}

/** The MultiRoom family. */
export const multiRoomFamily: Family<MultiRoomParams> = {
  name: 'MultiRoom',
  summary: 'Open the doors of a chain of rooms to reach the goal in the last one.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: [
    { name: 'MultiRoom-N2-S4', params: { minNumRooms: 2, maxNumRooms: 2, maxRoomSize: 4 } },
    { name: 'MultiRoom-N4-S5', params: { minNumRooms: 4, maxNumRooms: 4, maxRoomSize: 5 } },
    { name: 'MultiRoom-N6', params: { minNumRooms: 6, maxNumRooms: 6, maxRoomSize: 10 } },
  ],
  maxSteps: (p) => 20 * p.maxNumRooms,
  generate(world, rng, p) {
    const numRooms = rng.int(p.minNumRooms, p.maxNumRooms + 1);
    let rooms: RoomRect[] = [];
    for (let attempt = 0; rooms.length < numRooms; attempt++) {
      if (attempt > 10_000) throw new PlacementError('MultiRoom: could not lay out the rooms');
      const current: RoomRect[] = [];
      const entry: [number, number] = [rng.int(0, SIZE - 2), rng.int(0, SIZE - 2)];
      placeRoom(rng, numRooms, current, 4, p.maxRoomSize, 2, entry);
      if (current.length > rooms.length) rooms = current;
    }
    const g = new Grid(SIZE, SIZE);
    world.grid = g;
    let prevColor: ColorName | null = null;
    rooms.forEach((room, idx) => {
      const [tx, ty] = room.top;
      const [sx, sy] = room.size;
      for (let i = 0; i < sx; i++) {
        g.set(tx + i, ty, WALL);
        g.set(tx + i, ty + sy - 1, WALL);
      }
      for (let j = 0; j < sy; j++) {
        g.set(tx, ty + j, WALL);
        g.set(tx + sx - 1, ty + j, WALL);
      }
      if (idx > 0) {
        const color: ColorName = rng.choice(COLOR_NAMES.filter((c) => c !== prevColor));
        g.set(room.entryDoor[0], room.entryDoor[1], pack(OBJ.door, COLOR[color], STATE.closed));
        prevColor = color;
      }
    });
    const first = rooms[0] as RoomRect;
    const last = rooms[rooms.length - 1] as RoomRect;
    placeAgent(world, rng, first.top, first.size);
    const [gx, gy] = placeObj(world, rng, GOAL, last.top, last.size);
    world.mission = 'traverse the rooms to get to the goal';
    world.maxSteps = 20 * p.maxNumRooms;
    world.seeThroughWalls = false;
    return { expert: () => reachCell(world, gx, gy, 'the green goal') };
  },
};
