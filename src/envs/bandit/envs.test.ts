// One test parametrised over every registered bandit id (the MiniGrid contract checks):
// observation and view types, one-action episodes under random text, the same seed gives the same
// text trajectory, odd action text never throws, and the expert picks a valid arm.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/rng.js';
import { envRegistry } from '../registry.js';
import type { BanditEnv } from './env.js';
import { banditEnvs, banditExpert } from './index.js';

describe('every registered bandit id', () => {
  it('registers each id once, in the shared registry', () => {
    const ids = banditEnvs.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const spec of banditEnvs) expect(envRegistry.get(spec.id)).toBe(spec);
    expect(ids).toEqual(expect.arrayContaining(['bandit/Bandit', 'bandit/Bandit-test', 'bandit/BanditRev']));
  });

  it.each(banditEnvs.map((s) => [s.id, s] as const))('%s', (id, spec) => {
    const env = spec.make() as BanditEnv;
    expect(env.id).toBe(id);
    expect(spec.maxSteps).toBe(1);
    // Evaluation stays on this id's own names: an unseen pair would be <unk> to the base model.
    expect(spec.heldOutId).toBeUndefined();
    const obs = env.reset(7);
    const view = env.view();
    for (const name of view.arms) expect(obs).toContain(name);
    expect(new Set(view.arms)).toEqual(new Set([view.lowRiskArm, view.highRiskArm]));
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(env.instruction()).toMatch(/^You are playing a bandit game/);
    const hint = banditExpert(env);
    expect(spec.expert?.(env)).toEqual(hint);
    expect(hint.action).toBe(view.highRiskArm);
    expect(hint.reason).not.toMatch(/\n/);

    // Random text: every episode ends after its one action, with a payout of the two arms or 0.
    const rng = new Rng(3);
    for (let seed = 0; seed < 20; seed++) {
      env.reset(seed);
      const options = [...env.validActions(), 'pull', '', '<answer>x</answer>'];
      const r = env.step(options[rng.int(0, options.length)] as string);
      expect(r.done).toBe(true);
      expect([0, 0.1, 1]).toContain(r.reward);
      expect(env.step('again')).toMatchObject({ reward: 0, done: true });
    }
    // Same seed and action ⇒ same texts and payout, from fresh instances.
    const replay = (seed: number, action: number) => {
      const e = spec.make();
      const first = e.reset(seed);
      const r = e.step(e.validActions()?.[action] as string);
      return [first, r.observation, r.reward];
    };
    for (let seed = 0; seed < 10; seed++) expect(replay(seed, seed % 2)).toEqual(replay(seed, seed % 2));
  });
});
