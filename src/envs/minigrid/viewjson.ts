// The plain-JSON picture of a MiniGrid state for the UI viewers: every cell with its type,
// colour and door state, the agent's pose and hand, and its 7×7 view (what it sees, where each
// view cell lies on the grid, and MiniGrid's encoded image).
import {
  type ColorName,
  colorName,
  NONE,
  OBJ,
  type ObjectName,
  STATE_BY_IDX,
  type StateName,
  typeName,
} from './constants.js';
import { VIEW_SIZE, type ViewBuffer } from './view.js';
import type { World } from './world.js';

/** One non-empty cell or carried object. */
export interface CellView {
  type: ObjectName;
  color: ColorName;
  /** Doors only. */
  state?: StateName;
  /** A box's content. */
  contains?: CellView;
}

/** Everything a viewer needs to draw one MiniGrid state. */
export interface MiniGridView {
  kind: 'minigrid';
  id: string;
  mission: string;
  width: number;
  height: number;
  /** Row-major (`y * width + x`); null for empty cells. */
  cells: (CellView | null)[];
  agent: { x: number; y: number; dir: number };
  carrying: CellView | null;
  stepCount: number;
  maxSteps: number;
  done: boolean;
  lastReward: number;
  /** The agent's view, indexed `[vx][vy]` like MiniGrid's image (agent at [3][6]). */
  fov: {
    /** What the agent sees: a cell, null (empty) or "unseen". */
    cells: (CellView | null | 'unseen')[][];
    /** World position of each view cell (may be off-grid, where walls are drawn). */
    positions: [number, number][][];
    /** MiniGrid's encoded `obs["image"]`. */
    image: number[][][];
  };
  /** Family data (targets and the like). */
  extra: Record<string, unknown>;
}

/** The viewer form of a packed object code. */
export function cellView(code: number, contents = NONE): CellView {
  const out: CellView = { type: typeName(code), color: colorName(code) };
  if ((code & 15) === OBJ.door) out.state = STATE_BY_IDX[code >> 7] as StateName;
  if (contents !== NONE) out.contains = cellView(contents);
  return out;
}

/** Builds the JSON view of `world`; `view` must be computed for its current state. */
export function worldView(
  id: string,
  world: World,
  view: ViewBuffer,
  status: { done: boolean; lastReward: number; extra: Record<string, unknown> },
): MiniGridView {
  const g = world.grid;
  const cells: (CellView | null)[] = [];
  for (let i = 0; i < g.width * g.height; i++) {
    const c = g.cells[i] as number;
    cells.push((c & 15) === OBJ.empty ? null : cellView(c, g.contains[i] as number));
  }
  const fovCells: (CellView | null | 'unseen')[][] = [];
  const positions: [number, number][][] = [];
  for (let vx = 0; vx < VIEW_SIZE; vx++) {
    const col: (CellView | null | 'unseen')[] = [];
    const pos: [number, number][] = [];
    for (let vy = 0; vy < VIEW_SIZE; vy++) {
      const i = vx * VIEW_SIZE + vy;
      const c = view.cells[i] as number;
      const t = c & 15;
      col.push(t === OBJ.unseen ? 'unseen' : t === OBJ.empty ? null : cellView(c));
      pos.push([view.worldX[i] as number, view.worldY[i] as number]);
    }
    fovCells.push(col);
    positions.push(pos);
  }
  return {
    kind: 'minigrid',
    id,
    mission: world.mission,
    width: g.width,
    height: g.height,
    cells,
    agent: { x: world.agentX, y: world.agentY, dir: world.agentDir },
    carrying: world.carrying === NONE ? null : cellView(world.carrying, world.carryingContains),
    stepCount: world.stepCount,
    maxSteps: world.maxSteps,
    done: status.done,
    lastReward: status.lastReward,
    fov: { cells: fovCells, positions, image: view.imageLists() },
    extra: status.extra,
  };
}
