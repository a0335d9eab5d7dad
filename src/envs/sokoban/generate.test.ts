// Generated levels over 500 seeds per registered room kind: well-formed rooms, solvable within
// the bound the reverse play gives (its moves plus the random walk), and solved by the scripted
// expert within the episode's 10 actions (the registered ids keep only such levels).
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/rng.js';
import { SokobanEnv } from './env.js';
import { GenerationError, generateLevel, roomTopology } from './generate.js';
import { boxesOnTarget, FLOOR, TARGET, WALL } from './level.js';
import { solve } from './solver.js';

const SEEDS = 500;

describe('reverse-play generation', () => {
  it('walls the border of every topology', () => {
    for (let seed = 0; seed < 50; seed++) {
      const room = roomTopology(new Rng(seed), 6, 7, 22);
      for (let c = 0; c < 7; c++) expect([room[c], room[5 * 7 + c]]).toEqual([WALL, WALL]);
      for (let r = 0; r < 6; r++) expect([room[r * 7], room[r * 7 + 6]]).toEqual([WALL, WALL]);
      expect(room.some((x) => x === FLOOR)).toBe(true);
    }
  });

  it.each([
    [6, 6, 1, 300],
    [8, 8, 2, 10],
  ])('%i×%i rooms with %i box(es), depth %i, are solvable within their bound', (rows, cols, boxes, depth) => {
    let made = 0;
    for (let seed = 0; seed < SEEDS; seed++) {
      let g: ReturnType<typeof generateLevel>;
      try {
        g = generateLevel(new Rng(seed), {
          rows,
          cols,
          boxes,
          genSteps: Math.trunc(1.7 * (rows + cols)),
          searchDepth: depth,
        });
      } catch (err) {
        expect(err).toBeInstanceOf(GenerationError);
        continue;
      }
      made++;
      const { level } = g;
      expect(level.boxes).toHaveLength(boxes);
      expect(level.fixed.filter((f) => f === TARGET)).toHaveLength(boxes);
      expect(new Set([...level.boxes, level.player]).size).toBe(boxes + 1);
      for (const b of level.boxes) expect(level.fixed[b]).not.toBe(WALL);
      expect(level.fixed[level.player]).not.toBe(WALL);
      expect(boxesOnTarget(level)).toBeLessThan(boxes);
      expect(g.score).toBeGreaterThan(0);
      // Reverse play reaches depth searchDepth − 2 at most; the random walk adds up to 3 steps.
      if (depth < 300) expect(g.solutionBound).toBeLessThanOrEqual(depth - 2 + 3);
      const solution = solve(level, g.solutionBound);
      expect(solution, `seed ${seed}`).not.toBeNull();
    }
    expect(made).toBeGreaterThan(SEEDS * 0.8);
  });
});

describe('registered levels', () => {
  it.each([
    ['sokoban/Sokoban-6x6', {}],
    ['sokoban/Sokoban-8x8-2box', { rows: 8, cols: 8, boxes: 2, searchDepth: 10 }],
  ])('%s: the expert solves all 500 seeds within 10 actions', (id, options) => {
    const env = new SokobanEnv({ id, ...options });
    const lengths = new Set<number>();
    for (let seed = 0; seed < SEEDS; seed++) {
      env.reset(seed);
      const optimal = env.view().optimalSteps;
      expect(optimal).toBeGreaterThan(0);
      expect(optimal).toBeLessThanOrEqual(10);
      lengths.add(optimal);
      let reward = 0;
      let steps = 0;
      while (!env.isDone()) {
        reward += env.step(env.expert().action).reward;
        steps++;
      }
      expect(env.view().success, `seed ${seed}`).toBe(true);
      expect(steps).toBe(optimal);
      // The ±1 target rewards telescope (one box moves per step, none starts on a target):
      // total = boxes + 10 − 0.1 per move.
      expect(reward).toBeCloseTo(env.numBoxes + 10 - 0.1 * steps, 6);
    }
    expect(lengths.size).toBeGreaterThan(4);
  });
});
