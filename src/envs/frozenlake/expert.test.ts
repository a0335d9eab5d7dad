// The FrozenLake expert: a hand-computed value, shortest safe paths on non-slippery ice (every
// one of 500 seeds reached), and on slippery ice an empirical success rate matching the value
// iteration's own prediction and beating a random policy.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/rng.js';
import { FrozenLakeEnv } from './env.js';
import { lakeExpert, successValues } from './expert.js';
import { type LakeMap, safeDistances } from './map.js';

describe('FrozenLake expert', () => {
  it('matches a hand-computed value and prefers the wall that cannot slip into danger', () => {
    // P G   From the start, Right, Up and Down each reach the goal w.p. 1/3 in one move; Up bumps
    // _ _   the wall otherwise (expected distance 2/3), so it is the best of them.
    const map: LakeMap = { size: 2, tiles: Uint8Array.from([0, 2, 0, 0]), start: 0, goal: 1 };
    const v = successValues(map, 1 / 3, 2);
    expect(v[1]?.[0]).toBeCloseTo(1 / 3, 12);
    // Two moves: 1/3 now, else (Up: stay; or via the bottom-left cell) 1/3 again: 1 − (2/3)².
    expect(v[2]?.[0]).toBeCloseTo(1 - (2 / 3) ** 2, 12);
    const e = lakeExpert(map, 0, 1, 1 / 3);
    expect(e.action).toBe('Up');
    expect(e.reason).toBe('Up gives the best chance to reach the goal (0.33) with 1 move left');
  });

  it('walks a shortest safe path on non-slippery ice for 500 seeds', () => {
    const env = new FrozenLakeEnv({ pIntended: 1 });
    for (let seed = 0; seed < 500; seed++) {
      env.reset(seed);
      const shortest = safeDistances(env.map)[env.map.start] as number;
      let steps = 0;
      while (!env.isDone()) {
        const { action, reason } = env.expert();
        expect(reason).toMatch(/^the goal is \d+ steps? away on a safe path, go /);
        env.step(action);
        steps++;
      }
      expect(env.view().success, `seed ${seed}`).toBe(true);
      expect(steps).toBe(shortest);
    }
  });

  it('succeeds on slippery ice as often as its values predict, and more than random play', () => {
    const env = new FrozenLakeEnv();
    const n = 600;
    let predicted = 0;
    let expert = 0;
    let random = 0;
    const policy = new Rng(99);
    for (let seed = 0; seed < n; seed++) {
      env.reset(seed);
      predicted += successValues(env.map, 1 / 3, 10)[10]?.[env.map.start] ?? 0;
      while (!env.isDone()) env.step(env.expert().action);
      if (env.view().success) expert++;
      env.reset(seed);
      while (!env.isDone()) env.step(env.validActions()[policy.int(0, 4)] as string);
      if (env.view().success) random++;
    }
    const mean = predicted / n;
    expect(Math.abs(expert / n - mean)).toBeLessThan(4 * Math.sqrt((mean * (1 - mean)) / n));
    expect(expert / n).toBeGreaterThan(random / n + 0.15);
  });
});
