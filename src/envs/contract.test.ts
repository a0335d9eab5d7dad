// The text-environment contract, checked on every registered env (as MiniGrid's own suite runs
// one test over every registered id): step() before reset throws; reset is deterministic for a
// seed; the instruction and observations are text; unknown text is an invalid action, never an
// exception, and changes nothing; a random episode ends within maxSteps; after the end every step
// is done with no reward; the same seed and actions give the same episode (instance 0); view()
// is plain JSON data.
import { describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { envIds, envSpec } from './registry.js';

const JUNK = ['xyzzy', '', 'go nowhere please'];

/** One seeded random episode: the observations, rewards and done flags it produced. */
function episode(id: string, seed: number, policySeed: number) {
  const spec = envSpec(id);
  const env = spec.make();
  const rng = new Rng(policySeed);
  const out: { obs: string[]; rewards: number[]; done: boolean[] } = {
    obs: [env.reset(seed)],
    rewards: [],
    done: [],
  };
  for (let t = 0; t <= spec.maxSteps; t++) {
    const actions = [...(env.validActions() ?? []), ...JUNK];
    const r = env.step(actions[rng.int(0, actions.length)] as string);
    out.obs.push(r.observation);
    out.rewards.push(r.reward);
    out.done.push(r.done);
    if (r.done) break;
  }
  return out;
}

describe.each(envIds())('%s keeps the text-env contract', (id) => {
  const spec = envSpec(id);

  it('refuses a step before reset, and resets to the same text for a seed', () => {
    const env = spec.make();
    expect(env.id).toBe(id);
    expect(() => env.step('anything')).toThrow(/reset/);
    const first = env.reset(7);
    expect(typeof first).toBe('string');
    expect(first.length).toBeGreaterThan(0);
    expect(env.instruction().length).toBeGreaterThan(0);
    expect(spec.make().reset(7)).toBe(first);
    expect(JSON.parse(JSON.stringify(env.view()))).toEqual(env.view());
  });

  it('reads unknown text as an invalid, ineffective action with no reward, never an exception', () => {
    const env = spec.make();
    env.reset(3);
    const r = env.step('xyzzy plugh');
    expect(r.info.actionIsValid).toBe(false);
    expect(r.info.actionIsEffective).toBe(false);
    expect(r.info.success).toBe(false);
    expect(r.reward).toBe(0);
    expect(typeof r.observation).toBe('string');
  });

  it('ends a random episode within maxSteps, then answers every step done with no reward', () => {
    for (const seed of [1, 2, 3]) {
      const e = episode(id, seed, seed + 100);
      expect(e.done.at(-1), `seed ${seed}: ended`).toBe(true);
      expect(e.done.length).toBeLessThanOrEqual(spec.maxSteps);
      for (const r of e.rewards) expect(Number.isFinite(r)).toBe(true);
    }
    const env = spec.make();
    env.reset(5);
    let last = env.step('xyzzy');
    for (let t = 0; t < spec.maxSteps && !last.done; t++)
      last = env.step((env.validActions() ?? ['xyzzy'])[0] as string);
    if (!last.done) for (let t = 0; t <= spec.maxSteps && !last.done; t++) last = env.step('xyzzy');
    expect(last.done).toBe(true);
    const after = env.step((env.validActions() ?? ['xyzzy'])[0] ?? 'xyzzy');
    expect(after).toMatchObject({ done: true, reward: 0 });
  });

  it('plays the same episode from the same seed and actions', () => {
    expect(episode(id, 11, 5)).toEqual(episode(id, 11, 5));
  });
});
