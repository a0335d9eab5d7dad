// Sokoban room generation by reverse play, following gym_sokoban's `room_utils.generate_room` as
// RAGEN's SimpleSokoban uses it (ragen/env/sokoban/utils.py):
// 1. room topology: a random walk of `genSteps` steps (direction kept, changed with p = 0.35)
//    stamping one of five 3×3 floor masks at each position; the border stays wall;
// 2. the player on a random floor cell, then each box target on a random free floor cell;
// 3. reverse play: boxes start on their targets and a depth-first search (depth `searchDepth`,
//    at most 300,000 states) moves the player, pulling the box behind it on every move (RAGEN
//    keeps only these pull moves). Each newly seen state scores box swaps × the summed Manhattan
//    distance of the boxes from their targets (0 unless every target is uncovered), and the
//    best-scoring state becomes the level. Up to 4 topologies are tried while the best score is 0;
//    a level with score 0 is a failure (the caller retries with another stream);
// 4. RAGEN's random player walk: with probability 0.8 (best score 1) or 0.5, the player takes 1–3
//    random steps onto free cells it has not visited, continuing with probability 0.5.
// Every level is solvable: replaying the reverse moves backwards, then the random walk backwards,
// solves it, so `solutionBound` (their total length) bounds the shortest solution.
import type { Rng } from '../../core/rng.js';
import { DIR_DC, DIR_DR, FLOOR, type Level, TARGET, WALL } from './level.js';

/** Settings of one generator run (gym_sokoban's generate_room arguments). */
export interface GenerateOptions {
  rows: number;
  cols: number;
  boxes: number;
  /** Random-walk steps of the topology; gym_sokoban uses int(1.7 · (rows + cols)). */
  genSteps: number;
  /** Reverse-play depth (RAGEN: 300 by default, 10 for LargerSokoban). */
  searchDepth: number;
}

/** A generated level and what the generator knows about it. */
export interface GeneratedLevel {
  level: Level;
  /** Box swaps × box displacement of the chosen state (> 0). */
  score: number;
  /** Reverse moves plus random-walk steps: an upper bound on the shortest solution's length. */
  solutionBound: number;
}

/** The generator found no usable room on this stream (gym's RuntimeError / RuntimeWarning). */
export class GenerationError extends Error {}

const P_CHANGE_DIRECTION = 0.35;
const TOPOLOGY_TRIES = 4;
const MAX_EXPLORED = 300000;

/** gym_sokoban's five 3×3 floor masks, row-major. */
const MASKS: readonly (readonly number[])[] = [
  [0, 0, 0, 1, 1, 1, 0, 0, 0],
  [0, 1, 0, 0, 1, 0, 0, 1, 0],
  [0, 0, 0, 1, 1, 0, 0, 1, 0],
  [0, 0, 0, 1, 1, 0, 1, 1, 0],
  [0, 0, 0, 0, 1, 1, 0, 1, 0],
];
/** gym_sokoban's walk directions as [dRow, dCol]. */
const WALK: readonly (readonly [number, number])[] = [
  [1, 0],
  [0, 1],
  [-1, 0],
  [0, -1],
];

/** Floor (1) and wall (0) cells from a random walk; the border is wall. */
export function roomTopology(rng: Rng, rows: number, cols: number, steps: number): Uint8Array {
  const level = new Uint8Array(rows * cols);
  let dir = rng.choice(WALK);
  let r = rng.int(1, rows);
  let c = rng.int(1, cols);
  for (let s = 0; s < steps; s++) {
    if (rng.float() < P_CHANGE_DIRECTION) dir = rng.choice(WALK);
    r = Math.max(Math.min(r + dir[0], rows - 2), 1);
    c = Math.max(Math.min(c + dir[1], cols - 2), 1);
    const mask = rng.choice(MASKS);
    for (let i = 0; i < 9; i++) {
      if (mask[i]) level[(r - 1 + Math.floor(i / 3)) * cols + (c - 1 + (i % 3))] = FLOOR;
    }
  }
  for (let rr = 0; rr < rows; rr++) {
    for (let cc = 0; cc < cols; cc++) {
      if (rr === 0 || cc === 0 || rr === rows - 1 || cc === cols - 1) level[rr * cols + cc] = WALL;
    }
  }
  return level;
}

/** Manhattan distance between two cells. */
function manhattan(a: number, b: number, cols: number): number {
  return Math.abs(Math.floor(a / cols) - Math.floor(b / cols)) + Math.abs((a % cols) - (b % cols));
}

/** Reverse play from the solved state; returns the best state, its score and depth. */
function reversePlay(
  fixed: Uint8Array,
  cols: number,
  player: number,
  targets: number[],
  searchDepth: number,
): { boxes: number[]; player: number; score: number; depth: number } {
  const n = targets.length;
  const explored = new Set<string>();
  let best = { boxes: targets.slice(), player, score: -1, depth: 0 };
  const free = (cell: number, boxes: number[]): boolean => fixed[cell] !== WALL && !boxes.includes(cell);

  const dfs = (p: number, boxes: number[], swaps: number, lastPull: number, ttl: number, depth: number) => {
    ttl -= 1;
    if (ttl <= 0 || explored.size >= MAX_EXPLORED) return;
    const key = `${p}:${boxes
      .slice()
      .sort((a, b) => a - b)
      .join(',')}`;
    if (explored.has(key)) return;
    let displacement = 0;
    for (let i = 0; i < n; i++) displacement += manhattan(boxes[i] as number, targets[i] as number, cols);
    // gym counts targets showing in room_state: covered by a box or by the player they vanish.
    const uncovered = targets.every((t) => t !== p && !boxes.includes(t));
    const score = uncovered ? swaps * displacement : 0;
    if (score > best.score) best = { boxes: boxes.slice(), player: p, score, depth };
    explored.add(key);
    for (let a = 0; a < 4; a++) {
      const dr = DIR_DR[a] as number;
      const dc = DIR_DC[a] as number;
      const next = p + dr * cols + dc;
      let nextBoxes = boxes;
      let pull = lastPull;
      let nextP = p;
      if (free(next, boxes)) {
        nextP = next;
        const behind = p - dr * cols - dc;
        const k = boxes.indexOf(behind);
        if (k >= 0) {
          nextBoxes = boxes.slice();
          nextBoxes[k] = p;
          pull = k;
        }
      }
      dfs(nextP, nextBoxes, pull !== lastPull ? swaps + 1 : swaps, pull, ttl, depth + 1);
    }
  };
  dfs(player, targets.slice(), 0, -1, searchDepth, 0);
  return best;
}

/** RAGEN's random player walk after reverse play; returns the steps taken. */
function randomPlayerWalk(rng: Rng, level: Level, moveProbability: number): number {
  if (rng.float() > moveProbability) return 0;
  const visited = [level.player];
  let steps = 0;
  while (steps < 3) {
    const options: number[] = [];
    for (let a = 0; a < 4; a++) {
      const next = level.player + (DIR_DR[a] as number) * level.cols + (DIR_DC[a] as number);
      if (level.fixed[next] !== WALL && !level.boxes.includes(next) && !visited.includes(next)) {
        options.push(next);
      }
    }
    if (options.length === 0) break;
    level.player = rng.choice(options);
    visited.push(level.player);
    steps++;
    if (steps >= 3 || rng.float() > 0.5) break;
  }
  return steps;
}

/** One generator run on `rng`; throws GenerationError where gym_sokoban raises. */
export function generateLevel(rng: Rng, o: GenerateOptions): GeneratedLevel {
  let result: { fixed: Uint8Array; boxes: number[]; player: number; score: number; depth: number } | null =
    null;
  for (let t = 0; t < TOPOLOGY_TRIES; t++) {
    const fixed = roomTopology(rng, o.rows, o.cols, o.genSteps);
    const floors: number[] = [];
    for (let i = 0; i < fixed.length; i++) if (fixed[i] === FLOOR) floors.push(i);
    if (floors.length <= o.boxes + 1) {
      throw new GenerationError(`only ${floors.length} floor cells for 1 player and ${o.boxes} boxes`);
    }
    const player = rng.choice(floors);
    const targets: number[] = [];
    for (let b = 0; b < o.boxes; b++) {
      const open = floors.filter((f) => f !== player && !targets.includes(f));
      const target = rng.choice(open);
      targets.push(target);
      fixed[target] = TARGET;
    }
    const best = reversePlay(fixed, o.cols, player, targets, o.searchDepth);
    result = { fixed, ...best };
    if (best.score > 0) break;
  }
  if (!result || result.score <= 0) throw new GenerationError('generated a room with score 0');
  const level: Level = {
    rows: o.rows,
    cols: o.cols,
    fixed: result.fixed,
    boxes: result.boxes,
    player: result.player,
  };
  const walk = randomPlayerWalk(rng, level, result.score === 1 ? 0.8 : 0.5);
  return { level, score: result.score, solutionBound: result.depth + walk };
}
