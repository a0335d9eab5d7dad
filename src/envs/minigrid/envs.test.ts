// One test parametrised over every registered MiniGrid id (MiniGrid's own test style):
// observation and view types, episodes end by maxSteps under random actions, the same seed
// gives the same text trajectory, and nothing throws.
import { describe, expect, it } from 'vitest';
import { randomRollout } from '../testing.js';
import { minigridEnvs } from './index.js';
import type { MiniGridTextEnv } from './textenv.js';

/** A random-action episode of `id` (the shared env-test helper, no junk actions). */
function rollout(id: string, seed: number, policySeed: number) {
  const spec = minigridEnvs.find((s) => s.id === id);
  if (!spec) throw new Error(id);
  return randomRollout(spec, seed, policySeed, []);
}

describe('every registered MiniGrid id', () => {
  it('registers the upstream ids, each once', () => {
    const ids = minigridEnvs.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('minigrid/DoorKey-5x5');
    expect(ids).toContain('minigrid/KeyCorridorS6R3');
    expect(ids).toContain('minigrid/Dynamic-Obstacles-Random-6x6');
    expect(ids).toContain('minigrid/MemoryS17Random');
    expect(ids).toHaveLength(54);
  });

  it.each(minigridEnvs.map((s) => s.id))('%s', (id) => {
    const spec = minigridEnvs.find((s) => s.id === id);
    if (!spec) throw new Error(id);
    const env = spec.make() as MiniGridTextEnv;
    expect(env.id).toBe(id);
    const obs = env.reset(7);
    expect(typeof obs).toBe('string');
    expect(obs.split('\n')[0]).toBe(`Mission: ${env.instruction()}`);
    expect(env.instruction().length).toBeGreaterThan(0);
    for (const line of env.descriptions()) expect(line).toMatch(/^You (see|carry) a /);
    const view = env.view();
    expect(view.cells).toHaveLength(view.width * view.height);
    expect(view.fov.image).toHaveLength(7);
    expect(view.maxSteps).toBe(spec.maxSteps);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(env.validActions()).toEqual(
      spec.stochastic
        ? ['turn left', 'turn right', 'go forward']
        : expect.arrayContaining(['turn left', 'turn right', 'go forward', 'pick up', 'drop', 'toggle']),
    );

    // Random actions: every episode ends by maxSteps; rewards stay in MiniGrid's range.
    for (let seed = 0; seed < 3; seed++) {
      const run = rollout(id, seed, 100 + seed);
      expect(run.steps).toBeLessThanOrEqual(spec.maxSteps);
      for (const r of run.rewards) expect(r).toBeGreaterThanOrEqual(spec.stochastic ? -1 : 0);
      for (const r of run.rewards) expect(r).toBeLessThanOrEqual(1);
    }

    // Same seed and actions ⇒ same text trajectory.
    const a = rollout(id, 11, 5);
    const b = rollout(id, 11, 5);
    expect(b.texts).toEqual(a.texts);
    expect(b.rewards).toEqual(a.rewards);
  });
});

describe('seeded generation', () => {
  it('gives different layouts for different seeds in random families', () => {
    for (const id of [
      'minigrid/DoorKey-8x8',
      'minigrid/FourRooms',
      'minigrid/MultiRoom-N4-S5',
      'minigrid/KeyCorridorS4R3',
    ]) {
      const env = minigridEnvs.find((s) => s.id === id)?.make() as MiniGridTextEnv;
      const layouts = new Set<string>();
      for (let seed = 0; seed < 10; seed++) {
        env.reset(seed);
        layouts.add(JSON.stringify(env.view().cells));
      }
      expect(layouts.size, id).toBeGreaterThan(5);
    }
  });
});
