// FrozenLake rules on hand-made maps: +1 at the goal, 0 and the end in a hole, the symbols X and
// √, invalid text, truncation, and the slip model's frequencies (intended p, each side (1 − p)/2,
// never backwards).
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/rng.js';
import { FrozenLakeEnv } from './env.js';
import type { LakeMap } from './map.js';

// P O      start top-left, a hole right of it, the goal below the hole.
// _ G
const SMALL: LakeMap = { size: 2, tiles: Uint8Array.from([0, 1, 0, 2]), start: 0, goal: 3 };
const OPEN: LakeMap = { size: 5, tiles: new Uint8Array(25).fill(0), start: 12, goal: 0 };
OPEN.tiles[0] = 2;

describe('FrozenLake rules', () => {
  it('pays 1 at the goal and draws the player on it as √', () => {
    const env = new FrozenLakeEnv({ pIntended: 1, size: 2 });
    expect(env.load(SMALL).split('\n').slice(0, 2)).toEqual(['P O', '_ G']);
    const down = env.step('down');
    expect(down).toMatchObject({
      reward: 0,
      done: false,
      info: { actionIsValid: true, actionIsEffective: true },
    });
    const right = env.step('Right');
    expect(right.reward).toBe(1);
    expect(right.done).toBe(true);
    expect(right.info.success).toBe(true);
    expect(right.observation.split('\n').slice(0, 2)).toEqual(['_ O', '_ √']);
    expect(env.step('Left')).toMatchObject({ reward: 0, done: true, info: { actionIsValid: false } });
  });

  it('ends with 0 in a hole, drawn as X', () => {
    const env = new FrozenLakeEnv({ pIntended: 1, size: 2 });
    env.load(SMALL);
    const r = env.step('Right');
    expect(r).toMatchObject({ reward: 0, done: true, info: { success: false, actionIsEffective: true } });
    expect(r.observation.split('\n').slice(0, 2)).toEqual(['_ X', '_ G']);
  });

  it('counts invalid text and border bumps as actions and truncates at maxSteps', () => {
    const env = new FrozenLakeEnv({ pIntended: 1, size: 2, maxSteps: 3 });
    const first = env.load(SMALL);
    const bad = env.step('north');
    expect(bad.info).toEqual({ success: false, actionIsValid: false, actionIsEffective: false });
    expect(bad.observation).toBe(
      `Your previous action was not understood. Valid actions: Left, Down, Right, Up.\n${first}`,
    );
    expect(env.step('Up').info).toEqual({ success: false, actionIsValid: true, actionIsEffective: false });
    const last = env.step('LEFT');
    expect(last.done).toBe(true);
    expect(last.info.success).toBe(false);
    expect(env.view().steps).toBe(3);
  });

  it.each([
    [1 / 3, 1 / 3],
    [0.8, 0.1],
  ])('slips with p(intended) = %d, each side %d, never backwards', (p, side) => {
    const env = new FrozenLakeEnv({ pIntended: p, size: 5 });
    const counts = { Left: 0, Down: 0, Right: 0, Up: 0 };
    const n = 3000;
    for (let i = 0; i < n; i++) {
      env.load(OPEN, new Rng(i));
      env.step('Up');
      counts[env.view().lastMove as keyof typeof counts]++;
    }
    const tol = 4 * Math.sqrt((p * (1 - p)) / n);
    expect(counts.Up / n).toBeGreaterThan(p - tol);
    expect(counts.Up / n).toBeLessThan(p + tol);
    expect(Math.abs(counts.Left / n - side)).toBeLessThan(0.035);
    expect(Math.abs(counts.Right / n - side)).toBeLessThan(0.035);
    expect(counts.Down).toBe(0);
  });

  it('gives the same slips for the same seed and different ones for another salt', () => {
    const run = (salt: number) => {
      const env = new FrozenLakeEnv({ stepSalt: salt, maxSteps: 40 });
      env.reset(5);
      const moves: string[] = [];
      for (let i = 0; i < 12 && !env.isDone(); i++) {
        env.step('Left');
        moves.push(`${env.view().lastMove}`);
      }
      return moves.join(',');
    };
    expect(run(0)).toBe(run(0));
    const salted = new Set([run(0), run(1), run(2), run(3)]);
    expect(salted.size).toBeGreaterThan(1);
  });
});
