// Seeded placement, as MiniGrid's `place_obj` / `place_agent` do it: rejection sampling of a
// uniform cell in a rectangle, refusing occupied cells and the agent's cell. Upstream draws from
// numpy's PCG64; here the seeded Rng gives the same distributions, not the same layouts.
import type { Rng } from '../../core/rng.js';
import { EMPTY, NONE } from './constants.js';
import type { World } from './world.js';

/** Thrown when rejection sampling gives up; the env retries generation with a fresh stream. */
export class PlacementError extends Error {}

/** Optional filter: return true to refuse (x, y). */
export type RejectFn = (world: World, x: number, y: number) => boolean;

/**
 * `place_obj`: puts `code` (with a box's `contents`) on a random empty cell of the rectangle
 * `top` (clipped to ≥ 0) × `size` (clipped to the grid), not on the agent. Returns [x, y].
 */
export function placeObj(
  world: World,
  rng: Rng,
  code: number,
  top: readonly [number, number] = [0, 0],
  size: readonly [number, number] = [world.grid.width, world.grid.height],
  reject?: RejectFn,
  maxTries = 10_000,
  contents = NONE,
): [number, number] {
  const grid = world.grid;
  const tx = Math.max(top[0], 0);
  const ty = Math.max(top[1], 0);
  const x1 = Math.min(tx + size[0], grid.width);
  const y1 = Math.min(ty + size[1], grid.height);
  for (let tries = 0; tries < maxTries; tries++) {
    const x = rng.int(tx, x1);
    const y = rng.int(ty, y1);
    if (grid.get(x, y) !== EMPTY) continue;
    if (x === world.agentX && y === world.agentY) continue;
    if (reject?.(world, x, y)) continue;
    if (code !== EMPTY) grid.set(x, y, code, contents);
    return [x, y];
  }
  throw new PlacementError('rejection sampling failed in placeObj');
}

/** `place_agent`: a random empty cell of the rectangle, and a random direction if `randDir`. */
export function placeAgent(
  world: World,
  rng: Rng,
  top: readonly [number, number] = [0, 0],
  size: readonly [number, number] = [world.grid.width, world.grid.height],
  randDir = true,
  maxTries = 10_000,
): [number, number] {
  world.agentX = -1;
  world.agentY = -1;
  const [x, y] = placeObj(world, rng, EMPTY, top, size, undefined, maxTries);
  world.agentX = x;
  world.agentY = y;
  if (randDir) world.agentDir = rng.int(0, 4);
  return [x, y];
}
