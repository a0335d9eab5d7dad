// Breadth-first Sokoban solver over (player, boxes) states, like RAGEN's
// `get_shortest_action_path` but keyed by positions instead of whole rooms, with dead-square
// pruning (a box pushed onto a non-target cell from which no push can bring it to a target).
// Returns a shortest action sequence in moves (each move or push counts 1, as the env counts).
import { applyMove, DIRECTIONS, type Direction, type Level, neighbour, TARGET, WALL } from './level.js';

/** A shortest solution, or null when none exists within `maxDepth` moves. */
export interface Solution {
  actions: Direction[];
  /** States expanded (for tests and benchmarks). */
  expanded: number;
}

/**
 * Cells from which a box can still reach some target by pushes alone (ignoring other boxes):
 * reverse search from the targets, pulling a box from c to c − d needs c − d and c − 2d open.
 */
export function liveSquares(level: Level): Uint8Array {
  const live = new Uint8Array(level.fixed.length);
  const queue: number[] = [];
  for (let i = 0; i < level.fixed.length; i++) {
    if (level.fixed[i] === TARGET) {
      live[i] = 1;
      queue.push(i);
    }
  }
  while (queue.length > 0) {
    const cell = queue.shift() as number;
    for (let d = 0; d < 4; d++) {
      const from = neighbour(level, cell, d);
      const pusher = from < 0 ? -1 : neighbour(level, from, d);
      if (from < 0 || pusher < 0 || level.fixed[from] === WALL || level.fixed[pusher] === WALL) continue;
      if (!live[from]) {
        live[from] = 1;
        queue.push(from);
      }
    }
  }
  return live;
}

function stateKey(player: number, boxes: readonly number[], n: number): number {
  const sorted = boxes.slice().sort((a, b) => a - b);
  let key = player;
  let scale = n;
  for (const b of sorted) {
    key += b * scale;
    scale *= n;
  }
  return key;
}

/** Whether every box stands on a target. */
export function isSolved(level: Level): boolean {
  return level.boxes.every((b) => level.fixed[b] === TARGET);
}

/**
 * A shortest solution from `level` (not modified), or null when none has at most `maxDepth` moves.
 * Ties between equally short solutions go to the first action in Up, Down, Left, Right order.
 */
export function solve(level: Level, maxDepth = 200): Solution | null {
  const n = level.fixed.length;
  if (isSolved(level)) return { actions: [], expanded: 0 };
  const live = liveSquares(level);
  const start = stateKey(level.player, level.boxes, n);
  // parent key and action per visited state; states as (player, boxes) in a flat queue.
  const parent = new Map<number, { from: number; action: number }>([[start, { from: -1, action: -1 }]]);
  let frontier: { player: number; boxes: number[]; key: number }[] = [
    { player: level.player, boxes: level.boxes.slice(), key: start },
  ];
  let expanded = 0;
  const probe: Level = { ...level, boxes: [] };
  for (let depth = 0; depth < maxDepth && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const s of frontier) {
      expanded++;
      for (let a = 0; a < 4; a++) {
        probe.player = s.player;
        probe.boxes = s.boxes.slice();
        const moved = applyMove(probe, a);
        if (!moved.moved) continue;
        if (moved.pushed && probe.boxes.some((b) => !live[b])) continue;
        const key = stateKey(probe.player, probe.boxes, n);
        if (parent.has(key)) continue;
        parent.set(key, { from: s.key, action: a });
        if (moved.pushed && isSolved(probe)) return { actions: pathTo(parent, key), expanded };
        next.push({ player: probe.player, boxes: probe.boxes, key });
      }
    }
    frontier = next;
  }
  return null;
}

function pathTo(parent: Map<number, { from: number; action: number }>, key: number): Direction[] {
  const actions: Direction[] = [];
  let k = key;
  for (;;) {
    const p = parent.get(k);
    if (!p || p.from < 0) break;
    actions.push(DIRECTIONS[p.action] as Direction);
    k = p.from;
  }
  return actions.reverse();
}
