// FrozenLake maps over 500 seeds: start and goal distinct, a safe path always joins them (checked
// by a flood fill written here), about 80% of the other cells frozen; border moves stay put.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/rng.js';
import { FROZEN, GOAL, generateMap, HOLE, type LakeMap, moveFrom, safeDistances } from './map.js';

/** Cells reachable from the start through non-hole cells (independent of safeDistances). */
function reachable(map: LakeMap): Set<number> {
  const seen = new Set([map.start]);
  const stack = [map.start];
  while (stack.length > 0) {
    const cell = stack.pop() as number;
    const r = Math.floor(cell / map.size);
    const c = cell % map.size;
    for (const [dr, dc] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const rr = r + dr;
      const cc = c + dc;
      if (rr < 0 || cc < 0 || rr >= map.size || cc >= map.size) continue;
      const next = rr * map.size + cc;
      if (map.tiles[next] === HOLE || seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return seen;
}

describe('FrozenLake maps', () => {
  it('always join start and goal by a safe path (500 seeds)', () => {
    let frozen = 0;
    let others = 0;
    const layouts = new Set<string>();
    for (let seed = 0; seed < 500; seed++) {
      const map = generateMap(new Rng(seed));
      expect(map.start).not.toBe(map.goal);
      expect(map.tiles[map.start]).toBe(FROZEN);
      expect(map.tiles.filter((t) => t === GOAL)).toHaveLength(1);
      expect(map.tiles[map.goal]).toBe(GOAL);
      expect(reachable(map).has(map.goal), `seed ${seed}`).toBe(true);
      expect(safeDistances(map)[map.start]).toBeGreaterThan(0);
      map.tiles.forEach((t, i) => {
        if (i === map.start || i === map.goal) return;
        others++;
        if (t === FROZEN) frozen++;
      });
      layouts.add(Array.from(map.tiles).join('') + map.start);
    }
    // Rejecting maps without a path favours frozen cells a little.
    expect(frozen / others).toBeGreaterThan(0.78);
    expect(frozen / others).toBeLessThan(0.88);
    expect(layouts.size).toBeGreaterThan(450);
  });

  it('keeps the player in place at the border', () => {
    // 4 × 4: cell 0 is the top-left corner; directions Left, Down, Right, Up.
    expect([0, 1, 2, 3].map((d) => moveFrom(4, 0, d))).toEqual([0, 4, 1, 0]);
    expect([0, 1, 2, 3].map((d) => moveFrom(4, 15, d))).toEqual([14, 15, 15, 11]);
    expect([0, 1, 2, 3].map((d) => moveFrom(4, 5, d))).toEqual([4, 9, 6, 1]);
  });

  it('measures safe distances around holes', () => {
    // _ O G      the hole forces the path down and round: start (0,0) is 4 moves away.
    // _ _ _
    const map: LakeMap = { size: 3, tiles: Uint8Array.from([0, 1, 2, 0, 0, 0, 0, 0, 0]), start: 0, goal: 2 };
    expect(Array.from(safeDistances(map))).toEqual([4, -1, 0, 3, 2, 1, 4, 3, 2]);
  });
});
