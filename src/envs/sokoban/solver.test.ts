// The breadth-first solver: shortest lengths on hand-made levels, dead squares, unsolvable
// levels, and the expert following it to the end.
import { describe, expect, it } from 'vitest';
import { SokobanEnv } from './env.js';
import { parseLevel } from './level.js';
import { liveSquares, solve } from './solver.js';

describe('Sokoban solver', () => {
  it('finds shortest solutions', () => {
    expect(solve(parseLevel('# # # # # #\n# P X _ O #\n# # # # # #'))?.actions).toEqual(['Right', 'Right']);
    // The player steps right under the box, then pushes it up twice.
    const around = parseLevel(`
      # # # # #
      # _ O _ #
      # _ _ _ #
      # _ X _ #
      # P _ _ #
      # # # # #`);
    expect(solve(around)?.actions).toEqual(['Right', 'Up', 'Up']);
    expect(solve(parseLevel('# # # #\n# P √ #\n# # # #'))?.actions).toEqual([]);
  });

  it('reports no solution for a cornered box and within a too-small depth', () => {
    const cornered = parseLevel('# # # # #\n# X _ O #\n# _ P _ #\n# # # # #');
    expect(solve(cornered)).toBeNull();
    expect(solve(parseLevel('# # # # # #\n# P X _ O #\n# # # # # #'), 1)).toBeNull();
  });

  it('marks corners and wall-side cells away from targets as dead', () => {
    const level = parseLevel('# # # # #\n# _ _ _ #\n# _ _ O #\n# _ _ P #\n# # # # #');
    const live = liveSquares(level);
    const at = (r: number, c: number) => live[r * 5 + c];
    expect(at(2, 3)).toBe(1); // the target
    expect(at(2, 2)).toBe(1); // pushable right onto it
    expect(at(1, 1)).toBe(0); // corner
    expect(at(3, 1)).toBe(0); // corner
    expect(at(1, 2)).toBe(0); // against the top wall, target not on that wall
  });

  it('drives the expert through a two-box level', () => {
    const env = new SokobanEnv({ boxes: 2 });
    env.load(parseLevel('# # # # # # #\n# P X _ O _ #\n# _ _ X _ _ #\n# _ O _ _ _ #\n# # # # # # #'));
    const optimal = env.view().optimalSteps;
    let steps = 0;
    for (; steps < 20 && !env.isDone(); steps++) {
      const { action, reason } = env.expert();
      expect(reason.length).toBeGreaterThan(0);
      env.step(action);
    }
    expect(env.view().success).toBe(true);
    expect(steps).toBe(optimal);
  });
});
