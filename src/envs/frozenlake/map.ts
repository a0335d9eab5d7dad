// FrozenLake maps: gymnasium's `generate_random_map` as RAGEN calls it (size 4, p = 0.8): each
// cell frozen with probability p, else a hole; start and goal on random distinct cells; drawn
// again until a path through frozen cells joins them. Moves follow gymnasium: a step into the
// border leaves the player where it is.

/** Tile codes. */
export const FROZEN = 0;
export const HOLE = 1;
export const GOAL = 2;

/** RAGEN's FrozenLake action order (1 Left, 2 Down, 3 Right, 4 Up = gymnasium's 0–3). */
export const LAKE_ACTIONS = ['Left', 'Down', 'Right', 'Up'] as const;
export type LakeAction = (typeof LAKE_ACTIONS)[number];
const DR: readonly number[] = [0, 1, 0, -1];
const DC: readonly number[] = [-1, 0, 1, 0];

/** One map. Cells are row-major indices `row * size + col`. */
export interface LakeMap {
  size: number;
  /** FROZEN, HOLE or GOAL per cell (the start is frozen). */
  tiles: Uint8Array;
  start: number;
  goal: number;
}

/** The subset of Rng the generator uses. */
interface RandomSource {
  float(): number;
  int(lo: number, hi: number): number;
}

/** The cell reached from `cell` by moving in direction `dir` (0–3), clamped at the border. */
export function moveFrom(size: number, cell: number, dir: number): number {
  const r = Math.min(Math.max(Math.floor(cell / size) + (DR[dir] as number), 0), size - 1);
  const c = Math.min(Math.max((cell % size) + (DC[dir] as number), 0), size - 1);
  return r * size + c;
}

/**
 * Shortest safe distance (moves through non-hole cells) from every cell to the goal; -1 where the
 * goal cannot be reached. Holes get -1; the goal 0.
 */
export function safeDistances(map: LakeMap): Int32Array {
  const dist = new Int32Array(map.tiles.length).fill(-1);
  dist[map.goal] = 0;
  const queue = [map.goal];
  for (let q = 0; q < queue.length; q++) {
    const cell = queue[q] as number;
    for (let d = 0; d < 4; d++) {
      const from = moveFrom(map.size, cell, d);
      if (from === cell || dist[from] !== -1 || map.tiles[from] === HOLE) continue;
      dist[from] = (dist[cell] as number) + 1;
      queue.push(from);
    }
  }
  return dist;
}

/** gymnasium's generate_random_map on `rng`: redraws until start and goal are joined. */
export function generateMap(rng: RandomSource, size = 4, pFrozen = 0.8, maxDraws = 100000): LakeMap {
  for (let draw = 0; draw < maxDraws; draw++) {
    const tiles = new Uint8Array(size * size);
    for (let i = 0; i < tiles.length; i++) tiles[i] = rng.float() < pFrozen ? FROZEN : HOLE;
    const start = rng.int(0, size) * size + rng.int(0, size);
    const goal = rng.int(0, size) * size + rng.int(0, size);
    if (start === goal) continue;
    tiles[start] = FROZEN;
    tiles[goal] = GOAL;
    const map = { size, tiles, start, goal };
    if ((safeDistances(map)[start] as number) > 0) return map;
  }
  throw new Error(`generateMap: no connected ${size}×${size} map in ${maxDraws} draws`);
}
