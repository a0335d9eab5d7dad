// Bandit payouts and rules: the low-risk arm pays exactly 0.1, the high-risk arm 1 with
// probability 0.25 (mean within 4σ over 4000 seeds); success is the high-risk arm (Dragon,
// Librarian in RAGEN's BanditTest, Phoenix in BanditRev); names are case-insensitive; anything else
// ends the one-action episode with 0; the order and payouts are seeded.
import { describe, expect, it } from 'vitest';
import { ARM_POOLS } from './arms.js';
import { BanditEnv } from './env.js';

describe('bandit payouts', () => {
  it('pays the low-risk arm exactly 0.1 and the high-risk arm 1 w.p. 0.25', () => {
    const env = new BanditEnv();
    const n = 4000;
    let high = 0;
    for (let seed = 0; seed < n; seed++) {
      env.reset(seed);
      const r = env.step('Dragon');
      expect([0, 1]).toContain(r.reward);
      expect(r.observation).toBe(`Dragon: ${r.reward} points`);
      expect(r.info).toEqual({ success: true, actionIsValid: true, actionIsEffective: true });
      high += r.reward;
      env.reset(seed);
      const low = env.step('Phoenix');
      expect(low.reward).toBe(0.1);
      expect(low.observation).toBe('Phoenix: 0.1 points');
      expect(low.info.success).toBe(false);
      expect(low.done).toBe(true);
    }
    const tol = 4 * Math.sqrt((0.25 * 0.75) / n);
    expect(Math.abs(high / n - 0.25)).toBeLessThan(tol);
  });

  it.each([
    ['train', 'Dragon', 'Phoenix'],
    ['test', 'Librarian', 'Trader'],
    ['reversed', 'Phoenix', 'Dragon'],
  ] as const)('%s pool: %s is the high-risk arm', (pool, risky, safe) => {
    const env = new BanditEnv({ pool });
    env.reset(3);
    expect(env.view()).toMatchObject({ highRiskArm: risky, lowRiskArm: safe });
    expect(env.expert().action).toBe(risky);
    expect(env.step(risky.toUpperCase()).info.success).toBe(true);
    env.reset(3);
    expect(env.step(safe)).toMatchObject({ reward: 0.1, info: { success: false } });
  });

  it('shows the arms in a seeded random order and draws every pair of a pool', () => {
    const env = new BanditEnv({ pool: 'professionsTrain' });
    let lowFirst = 0;
    const pairs = new Set<string>();
    for (let seed = 0; seed < 1000; seed++) {
      const obs = env.reset(seed);
      const v = env.view();
      expect(obs.split('\n')[0]).toBe(`There are 2 arms, named ${v.arms[0]} and ${v.arms[1]}.`);
      expect(env.validActions()).toEqual(v.arms);
      if (v.arms[0] === v.lowRiskArm) lowFirst++;
      pairs.add(`${v.lowRiskArm}/${v.highRiskArm}`);
    }
    expect(lowFirst).toBeGreaterThan(430);
    expect(lowFirst).toBeLessThan(570);
    expect(pairs).toEqual(new Set(ARM_POOLS.professionsTrain.map(([lo, hi]) => `${lo}/${hi}`)));
  });

  it('ends the episode on text that names no arm, with reward 0', () => {
    const env = new BanditEnv();
    const first = env.reset(1);
    expect(env.step(' dragon ').info.actionIsValid).toBe(true);
    env.reset(1);
    const r = env.step('the dragon');
    expect(r).toMatchObject({ reward: 0, done: true });
    expect(r.info).toEqual({ success: false, actionIsValid: false, actionIsEffective: false });
    expect(r.observation).toBe(
      `Your previous action was not understood. Valid actions: ${env.validActions().join(', ')}.\n${first}`,
    );
    expect(env.view()).toMatchObject({ chosen: null, success: false, done: true });
    expect(env.step('Dragon')).toMatchObject({ reward: 0, done: true, info: { actionIsValid: false } });
  });

  it('pays the same for the same seed, and differently with another salt', () => {
    const payouts = (salt: number) => {
      const env = new BanditEnv({ stepSalt: salt });
      return Array.from({ length: 64 }, (_, seed) => {
        env.reset(seed);
        return env.step('Dragon').reward;
      }).join('');
    };
    expect(payouts(0)).toBe(payouts(0));
    expect(payouts(1)).not.toBe(payouts(0));
  });
});
