// One test parametrised over every registered Sokoban id (the MiniGrid contract checks):
// observation and view types, episodes end by maxSteps under random actions, the same seed
// gives the same text trajectory, odd action text never throws, and seeds vary the levels.

import { describe, expect, it } from 'vitest';
import { envRegistry } from '../registry.js';
import { randomRollout } from '../testing.js';
import type { EnvSpec } from '../types.js';
import type { SokobanEnv } from './env.js';
import { sokobanEnvs, sokobanExpert } from './index.js';

const JUNK = ['jump', '', 'up up', '<answer>Up</answer>'];
const rollout = (spec: EnvSpec, seed: number, policySeed: number) =>
  randomRollout(spec, seed, policySeed, JUNK);

describe('every registered Sokoban id', () => {
  it('registers each id once, in the shared registry', () => {
    const ids = sokobanEnvs.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const spec of sokobanEnvs) expect(envRegistry.get(spec.id)).toBe(spec);
    expect(ids).toEqual(expect.arrayContaining(['sokoban/Sokoban-6x6', 'sokoban/Sokoban-8x8-2box']));
  });

  it.each(sokobanEnvs.map((s) => [s.id, s] as const))('%s', (id, spec) => {
    const env = spec.make() as SokobanEnv;
    expect(env.id).toBe(id);
    expect(spec.maxSteps).toBe(10);
    expect(spec.stochastic).toBe(false);
    const obs = env.reset(7);
    const lines = obs.split('\n');
    const view = env.view();
    expect(lines).toHaveLength(view.rows + 1);
    expect(lines.slice(0, view.rows)).toEqual(view.grid.map((row) => row.join(' ')));
    expect(lines[view.rows]).toBe(view.legend);
    expect(view.maxSteps).toBe(spec.maxSteps);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(env.validActions()).toEqual(['Up', 'Down', 'Left', 'Right']);
    expect(env.instruction()).toMatch(/^You are solving the Sokoban puzzle/);
    const hint = sokobanExpert(env);
    expect(spec.expert?.(env)).toEqual(hint);
    expect(env.validActions()).toContain(hint.action);
    expect(hint.reason).not.toMatch(/\n/);

    for (let seed = 0; seed < 5; seed++) {
      const run = rollout(spec, seed, 100 + seed);
      expect(run.steps).toBeLessThanOrEqual(spec.maxSteps);
      for (const r of run.rewards)
        expect([0, -0.1, 0.9, -1.1, 10.9].some((x) => Math.abs(r - x) < 1e-9)).toBe(true);
    }
    const a = rollout(spec, 11, 5);
    const b = rollout(spec, 11, 5);
    expect(b.texts).toEqual(a.texts);
    expect(b.rewards).toEqual(a.rewards);

    const layouts = new Set<string>();
    for (let seed = 0; seed < 10; seed++) layouts.add(env.reset(seed));
    expect(layouts.size).toBeGreaterThan(7);
  });
});
