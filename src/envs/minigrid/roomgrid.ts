// MiniGrid's RoomGrid (`core/roomgrid.py`): a rows × cols lattice of square rooms sharing
// walls, one random door slot per shared wall, and the helpers its families use (add a door,
// add an object away from the agent, place the agent facing a free cell or a wall, connect all
// rooms with unlocked doors, remove a wall).
import type { Rng } from '../../core/rng.js';
import { COLOR, COLOR_NAMES, type ColorName, EMPTY, OBJ, pack, STATE, typeOf } from './constants.js';
import { Grid } from './grid.js';
import { PlacementError, placeAgent, placeObj } from './placement.js';
import type { World } from './world.js';

/** One room: its walls' top-left corner and size, and its links (order right, down, left, up). */
export interface Room {
  top: [number, number];
  size: [number, number];
  /** Door slot on each wall, null where there is no neighbour. */
  doorPos: ([number, number] | null)[];
  /** Neighbouring room on each side, null at the edge. */
  neighbors: (Room | null)[];
  /** Whether each wall is passable: a door was added or the wall removed. */
  doors: boolean[];
  /** The room is behind a locked door. */
  locked: boolean;
}

/** Rejects cells at Manhattan distance < 2 from the agent (`reject_next_to`). */
function rejectNextTo(world: World, x: number, y: number): boolean {
  return Math.abs(world.agentX - x) + Math.abs(world.agentY - y) < 2;
}

/** A RoomGrid laid into a world; the world's grid is replaced. */
export class RoomGrid {
  readonly roomSize: number;
  readonly numRows: number;
  readonly numCols: number;
  readonly rooms: Room[][] = [];

  /** `RoomGrid._gen_grid`: walls, door slots, and the agent in the middle room facing right. */
  constructor(
    readonly world: World,
    readonly rng: Rng,
    roomSize: number,
    numRows: number,
    numCols: number,
  ) {
    this.roomSize = roomSize;
    this.numRows = numRows;
    this.numCols = numCols;
    const s = roomSize - 1;
    world.grid = new Grid(s * numCols + 1, s * numRows + 1);
    world.seeThroughWalls = false;
    for (let j = 0; j < numRows; j++) {
      const row: Room[] = [];
      for (let i = 0; i < numCols; i++) {
        const room: Room = {
          top: [i * s, j * s],
          size: [roomSize, roomSize],
          doorPos: [null, null, null, null],
          neighbors: [null, null, null, null],
          doors: [false, false, false, false],
          locked: false,
        };
        world.grid.wallRect(room.top[0], room.top[1], roomSize, roomSize);
        row.push(room);
      }
      this.rooms.push(row);
    }
    for (let j = 0; j < numRows; j++) {
      for (let i = 0; i < numCols; i++) {
        const room = this.room(i, j);
        const xl = room.top[0] + 1;
        const yl = room.top[1] + 1;
        const xm = room.top[0] + roomSize - 1;
        const ym = room.top[1] + roomSize - 1;
        if (i < numCols - 1) {
          room.neighbors[0] = this.room(i + 1, j);
          room.doorPos[0] = [xm, rng.int(yl, ym)];
        }
        if (j < numRows - 1) {
          room.neighbors[1] = this.room(i, j + 1);
          room.doorPos[1] = [rng.int(xl, xm), ym];
        }
        if (i > 0) {
          room.neighbors[2] = this.room(i - 1, j);
          room.doorPos[2] = this.room(i - 1, j).doorPos[0] ?? null;
        }
        if (j > 0) {
          room.neighbors[3] = this.room(i, j - 1);
          room.doorPos[3] = this.room(i, j - 1).doorPos[1] ?? null;
        }
      }
    }
    world.agentX = Math.floor(numCols / 2) * s + Math.floor(roomSize / 2);
    world.agentY = Math.floor(numRows / 2) * s + Math.floor(roomSize / 2);
    world.agentDir = 0;
  }

  /** The room in column i, row j. */
  room(i: number, j: number): Room {
    const r = this.rooms[j]?.[i];
    if (!r) throw new Error(`RoomGrid: no room (${i}, ${j})`);
    return r;
  }

  /** The room holding cell (x, y). */
  roomFromPos(x: number, y: number): Room {
    const s = this.roomSize - 1;
    return this.room(
      Math.min(Math.floor(x / s), this.numCols - 1),
      Math.min(Math.floor(y / s), this.numRows - 1),
    );
  }

  /** `add_door`: a door on wall `doorIdx` (random free wall if null); returns its code and cell. */
  addDoor(
    i: number,
    j: number,
    doorIdx: number | null = null,
    color: ColorName | null = null,
    locked: boolean | null = null,
  ): { code: number; x: number; y: number } {
    const room = this.room(i, j);
    let k = doorIdx;
    if (k === null) {
      do k = this.rng.int(0, 4);
      while (!room.neighbors[k] || room.doors[k]);
    }
    const c = color ?? this.rng.choice(COLOR_NAMES);
    const isLocked = locked ?? this.rng.int(0, 2) === 0;
    room.locked = isLocked;
    const pos = room.doorPos[k];
    const neighbor = room.neighbors[k];
    if (!pos || !neighbor || room.doors[k]) throw new Error(`RoomGrid.addDoor: no free door slot ${k}`);
    const code = pack(OBJ.door, COLOR[c], isLocked ? STATE.locked : STATE.closed);
    this.world.grid.set(pos[0], pos[1], code);
    room.doors[k] = true;
    neighbor.doors[(k + 2) % 4] = true;
    return { code, x: pos[0], y: pos[1] };
  }

  /** `remove_wall`: opens the whole wall `k` of room (i, j) towards its neighbour. */
  removeWall(i: number, j: number, k: number): void {
    const room = this.room(i, j);
    const neighbor = room.neighbors[k];
    if (!neighbor || room.doors[k]) throw new Error(`RoomGrid.removeWall: invalid wall ${k}`);
    const [tx, ty] = room.top;
    const [w, h] = room.size;
    const g = this.world.grid;
    if (k === 0) for (let d = 1; d < h - 1; d++) g.set(tx + w - 1, ty + d, EMPTY);
    else if (k === 1) for (let d = 1; d < w - 1; d++) g.set(tx + d, ty + h - 1, EMPTY);
    else if (k === 2) for (let d = 1; d < h - 1; d++) g.set(tx, ty + d, EMPTY);
    else for (let d = 1; d < w - 1; d++) g.set(tx + d, ty, EMPTY);
    room.doors[k] = true;
    neighbor.doors[(k + 2) % 4] = true;
  }

  /** `add_object` / `place_in_room`: an object in room (i, j), not next to the agent. */
  addObject(i: number, j: number, code: number): [number, number] {
    const room = this.room(i, j);
    return placeObj(this.world, this.rng, code, room.top, room.size, rejectNextTo, 1000);
  }

  /** `RoomGrid.place_agent`: in room (i, j), re-drawn until it faces an empty cell or a wall. */
  placeAgent(i: number, j: number): void {
    const room = this.room(i, j);
    for (let tries = 0; tries < 10_000; tries++) {
      placeAgent(this.world, this.rng, room.top, room.size, true, 1000);
      const front = this.world.grid.get(this.world.frontX(), this.world.frontY());
      if (front === EMPTY || typeOf(front) === OBJ.wall) return;
    }
    throw new PlacementError('RoomGrid.placeAgent: no free facing found');
  }

  /** `connect_all`: adds unlocked doors until every room is reachable from the agent's room. */
  connectAll(maxIters = 5000): void {
    const start = this.roomFromPos(this.world.agentX, this.world.agentY);
    const total = this.numRows * this.numCols;
    for (let it = 0; ; it++) {
      if (it > maxIters) throw new PlacementError('RoomGrid.connectAll failed');
      const reach = new Set<Room>();
      const stack = [start];
      while (stack.length > 0) {
        const r = stack.pop() as Room;
        if (reach.has(r)) continue;
        reach.add(r);
        for (let k = 0; k < 4; k++) if (r.doors[k]) stack.push(r.neighbors[k] as Room);
      }
      if (reach.size === total) return;
      const i = this.rng.int(0, this.numCols);
      const j = this.rng.int(0, this.numRows);
      const k = this.rng.int(0, 4);
      const room = this.room(i, j);
      if (!room.doorPos[k] || room.doors[k]) continue;
      if (room.locked || room.neighbors[k]?.locked) continue;
      const color = this.rng.choice(COLOR_NAMES);
      this.addDoor(i, j, k, color, false);
    }
  }
}
