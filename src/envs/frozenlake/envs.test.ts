// One test parametrised over every registered FrozenLake id (the MiniGrid contract checks):
// observation and view types, episodes end by maxSteps under random actions, the same seed
// gives the same text trajectory (slips included), odd action text never throws, and seeds vary
// the maps.

import { describe, expect, it } from 'vitest';
import { envRegistry } from '../registry.js';
import { randomRollout } from '../testing.js';
import type { EnvSpec } from '../types.js';
import type { FrozenLakeEnv } from './env.js';
import { frozenLakeEnvs, frozenLakeExpert } from './index.js';

const JUNK = ['jump', '', 'left left', '<answer>Up</answer>'];
const rollout = (spec: EnvSpec, seed: number, policySeed: number) =>
  randomRollout(spec, seed, policySeed, JUNK);

describe('every registered FrozenLake id', () => {
  it('registers each id once, in the shared registry', () => {
    const ids = frozenLakeEnvs.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const spec of frozenLakeEnvs) expect(envRegistry.get(spec.id)).toBe(spec);
    expect(ids).toEqual(
      expect.arrayContaining(['frozenlake/FrozenLake-4x4', 'frozenlake/FrozenLake-4x4-det']),
    );
  });

  it.each(frozenLakeEnvs.map((s) => [s.id, s] as const))('%s', (id, spec) => {
    const env = spec.make() as FrozenLakeEnv;
    expect(env.id).toBe(id);
    expect(spec.maxSteps).toBe(10);
    expect(spec.stochastic).toBe(env.pIntended < 1);
    const obs = env.reset(7);
    const view = env.view();
    const lines = obs.split('\n');
    expect(lines).toHaveLength(view.size + 1);
    expect(lines.slice(0, view.size)).toEqual(view.grid.map((row) => row.join(' ')));
    expect(lines[view.size]).toBe(view.legend);
    expect(view.grid.flat().filter((c) => c === 'P')).toHaveLength(1);
    expect(view.grid.flat().filter((c) => c === 'G')).toHaveLength(1);
    expect(view.maxSteps).toBe(spec.maxSteps);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(env.validActions()).toEqual(['Left', 'Down', 'Right', 'Up']);
    expect(env.instruction()).toMatch(/^You are solving the FrozenLake puzzle/);
    expect(env.instruction().includes('slippery')).toBe(spec.stochastic);
    const hint = frozenLakeExpert(env);
    expect(spec.expert?.(env)).toEqual(hint);
    expect(env.validActions()).toContain(hint.action);
    expect(hint.reason).not.toMatch(/\n/);

    for (let seed = 0; seed < 5; seed++) {
      const run = rollout(spec, seed, 100 + seed);
      expect(run.steps).toBeLessThanOrEqual(spec.maxSteps);
      for (const r of run.rewards) expect([0, 1]).toContain(r);
    }
    for (let seed = 0; seed < 3; seed++) {
      const a = rollout(spec, 11 + seed, 5);
      const b = rollout(spec, 11 + seed, 5);
      expect(b.texts).toEqual(a.texts);
      expect(b.rewards).toEqual(a.rewards);
    }

    const layouts = new Set<string>();
    for (let seed = 0; seed < 10; seed++) layouts.add(env.reset(seed));
    expect(layouts.size).toBeGreaterThan(7);
  });
});
