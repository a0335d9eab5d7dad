// LavaCrossing and SimpleCrossing (Farama MiniGrid 3.x `envs/crossing.py`).
//
// ## Description
// The agent starts at (1, 1) facing right; the goal is in the bottom-right corner. N rivers
// (lava for LavaCrossing, walls for SimpleCrossing) run across the room along even rows and
// columns; a shuffled monotone path from start to goal opens one cell in each river it
// crosses, so the goal is always reachable. Occlusion is on.
//
// ## Mission
// LavaCrossing: "avoid the lava and get to the green goal square"
// SimpleCrossing: "find the opening and get to the green goal square"
//
// ## Observation (SimpleCrossingS9N1, seed 1; the first line is the mission, then BALROG's lines)
// Mission: find the opening and get to the green goal square
// a wall 1 step left
// a wall 3 steps right
//
// ## Actions
// turn left, turn right, go forward (pick up, drop, toggle have no effect).
//
// ## Rewards
// 1 − 0.9 · stepCount / maxSteps on reaching the goal; 0 for lava or timeout.
//
// ## Termination
// The goal or lava is entered, or maxSteps = 4 · size² steps pass.
//
// ## Registered ids
// minigrid/LavaCrossingS9N1, S9N2, S9N3, S11N5; minigrid/SimpleCrossingS9N1, S9N2, S9N3, S11N5
import type { Rng } from '../../../core/rng.js';
import { EMPTY, GOAL, LAVA, WALL } from '../constants.js';
import { reachCell } from '../expert.js';
import { type Family, STANDARD_ACTIONS, type Task } from '../family.js';
import { Grid } from '../grid.js';
import type { World } from '../world.js';

export interface CrossingParams {
  size: number;
  numCrossings: number;
}

const CONFIGS: readonly [number, number][] = [
  [9, 1],
  [9, 2],
  [9, 3],
  [11, 5],
];

function range(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let i = lo; i < hi; i++) out.push(i);
  return out;
}

function generateCrossing(world: World, rng: Rng, p: CrossingParams, lava: boolean): Task {
  const w = p.size;
  const h = p.size;
  const obstacle = lava ? LAVA : WALL;
  world.grid = new Grid(w, h);
  world.grid.wallRect(0, 0, w, h);
  world.agentX = 1;
  world.agentY = 1;
  world.agentDir = 0;
  world.grid.set(w - 2, h - 2, GOAL);
  // Rivers: vertical ones at even columns, horizontal ones at even rows.
  const rivers: ['v' | 'h', number][] = [];
  for (let i = 2; i < h - 2; i += 2) rivers.push(['v', i]);
  for (let j = 2; j < w - 2; j += 2) rivers.push(['h', j]);
  rng.shuffle(rivers);
  const chosen = rivers.slice(0, p.numCrossings);
  const riversV = chosen.filter((r) => r[0] === 'v').map((r) => r[1]);
  const riversH = chosen.filter((r) => r[0] === 'h').map((r) => r[1]);
  riversV.sort((a, b) => a - b);
  riversH.sort((a, b) => a - b);
  for (const j of riversH) for (let i = 1; i < w - 1; i++) world.grid.set(i, j, obstacle);
  for (const i of riversV) for (let j = 1; j < h - 1; j++) world.grid.set(i, j, obstacle);
  // A path crosses each vertical river with a horizontal move ('h') and each horizontal one
  // with a vertical move ('v'); shuffled, then one opening is cut per crossing.
  const path: ('h' | 'v')[] = [...riversV.map(() => 'h' as const), ...riversH.map(() => 'v' as const)];
  rng.shuffle(path);
  const limitsV = [0, ...riversV, h - 1];
  const limitsH = [0, ...riversH, w - 1];
  let roomI = 0;
  let roomJ = 0;
  for (const d of path) {
    let i: number;
    let j: number;
    if (d === 'h') {
      i = limitsV[roomI + 1] as number;
      j = rng.choice(range((limitsH[roomJ] as number) + 1, limitsH[roomJ + 1] as number));
      roomI++;
    } else {
      i = rng.choice(range((limitsV[roomI] as number) + 1, limitsV[roomI + 1] as number));
      j = limitsH[roomJ + 1] as number;
      roomJ++;
    }
    world.grid.set(i, j, EMPTY);
  }
  world.mission = lava
    ? 'avoid the lava and get to the green goal square'
    : 'find the opening and get to the green goal square';
  world.maxSteps = 4 * w * h;
  world.seeThroughWalls = false;
  return { expert: () => reachCell(world, w - 2, h - 2, 'the green goal') };
}

/** The LavaCrossing family. */
export const lavaCrossingFamily: Family<CrossingParams> = {
  name: 'LavaCrossing',
  summary: 'Cross rivers of lava through their openings to reach the goal.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: CONFIGS.map(([size, n]) => ({
    name: `LavaCrossingS${size}N${n}`,
    params: { size, numCrossings: n },
  })),
  maxSteps: (p) => 4 * p.size * p.size,
  generate: (world, rng, p) => generateCrossing(world, rng, p, true),
};

/** The SimpleCrossing family (walls instead of lava). */
export const simpleCrossingFamily: Family<CrossingParams> = {
  name: 'SimpleCrossing',
  summary: 'Cross walls through their openings to reach the goal.',
  actions: STANDARD_ACTIONS,
  stochastic: false,
  variants: CONFIGS.map(([size, n]) => ({
    name: `SimpleCrossingS${size}N${n}`,
    params: { size, numCrossings: n },
  })),
  maxSteps: (p) => 4 * p.size * p.size,
  generate: (world, rng, p) => generateCrossing(world, rng, p, false),
};
