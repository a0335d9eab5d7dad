// Replaying a recorded trajectory rebuilds each turn's view and notices a wrong record.
import { describe, expect, it } from 'vitest';
import type { SampledTrajectory } from '../../core/rl/trainer.js';
import type { MiniGridView } from '../../envs/minigrid/viewjson.js';
import { makeEnv } from '../../envs/registry.js';
import type { WebShopView } from '../../envs/webshop/env.js';
import { replayTrajectory } from './replay.js';

function record(envId: string, seed: number, turns: string[][]): SampledTrajectory {
  const env = makeEnv(envId);
  let observation = env.reset(seed);
  const out: SampledTrajectory['turns'] = [];
  for (const actions of turns) {
    out.push({
      observation,
      responseText: '',
      tokens: [],
      logps: [],
      actions,
      valid: [],
      reward: 0,
      penalised: false,
    });
    for (const a of actions) observation = env.step(a).observation;
  }
  return {
    iteration: 0,
    group: 0,
    seed,
    instruction: env.instruction(),
    reward: 0,
    success: false,
    turns: out,
  };
}

describe('replayTrajectory', () => {
  it('rebuilds MiniGrid views turn by turn', () => {
    const sample = record('minigrid/Empty-5x5', 3, [['turn right'], ['go forward', 'go forward'], []]);
    const r = replayTrajectory('minigrid/Empty-5x5', sample);
    expect(r.mismatchAt).toBeNull();
    expect(r.views).toHaveLength(4);
    const v = r.views as MiniGridView[];
    expect(v[0]?.kind).toBe('minigrid');
    expect(v[1]?.agent.dir).toBe(((v[0]?.agent.dir ?? 0) + 1) % 4);
    expect(v[3]?.stepCount).toBe(3);
  });

  it('rebuilds WebShop pages', () => {
    const env = makeEnv('webshop/lite');
    env.reset(5);
    const query = env.instruction().split(' ').slice(2, 5).join(' ');
    const sample = record('webshop/lite', 5, [[`search[${query}]`], []]);
    const v = replayTrajectory('webshop/lite', sample).views as WebShopView[];
    expect(v[0]?.page).toBe('search');
    expect(v[1]?.page).toBe('results');
    expect(v[1]?.results?.products.length).toBeGreaterThan(0);
  });

  it('says from which turn a record does not match', () => {
    const sample = record('minigrid/Empty-5x5', 3, [['turn right'], ['go forward']]);
    (sample.turns[1] as { observation: string }).observation = 'something else';
    expect(replayTrajectory('minigrid/Empty-5x5', sample).mismatchAt).toBe(1);
  });
});
