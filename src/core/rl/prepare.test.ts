// KL where RAGEN puts it (issue 18 item 2), checked against hand-computed values: with klMode
// 'reward' kl_coef · KL(old ‖ ref) is subtracted from every loss-mask token's reward (RAGEN's
// apply_kl_penalty), so GAE's advantages carry the return-to-go of the penalties; windows of
// one trajectory carry their later windows' penalties; GRPO's score is the penalised sum; the
// reported KL uses the configured estimator (k1 or k3).
import { describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../config.js';
import { applyAlgorithm } from './algorithms.js';
import { computeAdvantages, klTokens } from './prepare.js';
import type { Sample } from './samples.js';

/** A window sample over 4 targets, the middle three trained, reward `reward` on target 3. */
function sample(traj: number, group: number, reward: number, onLast: number): Sample {
  const lossMask = Float32Array.from([0, 1, 1, 1]);
  const rewards = new Float32Array(4);
  rewards[3] = onLast;
  return {
    traj,
    group,
    turn: -1,
    ids: [0, 1, 2, 3, 4],
    lossMask,
    agentMask: Float32Array.from(lossMask),
    rewards,
    reward,
    stateIndex: -1,
  };
}

const OLD = Float32Array.from([0, -1, -2, -0.5]);
const REF = Float32Array.from([0, -1.5, -1, -0.5]);
const close = (a: ArrayLike<number>, b: readonly number[]) => {
  expect(a.length).toBe(b.length);
  b.forEach((x, i) => {
    expect(a[i] as number).toBeCloseTo(x, 5);
  });
};

function config(overrides: Partial<Config>): Config {
  return { ...applyAlgorithm(defaultConfig(), 'starpo-ppo'), whiten: false, klCoef: 0.1, ...overrides };
}

function scores(n: number) {
  return {
    oldLogp: Array.from({ length: n }, () => OLD),
    refLogp: Array.from({ length: n }, () => REF),
    values: Array.from({ length: n }, () => new Float32Array(4)),
  };
}

describe('KL to the reference', () => {
  it('k1 and k3 per token on the mask, as verl kl_penalty "kl" and "low_var_kl"', () => {
    const mask = Float32Array.from([0, 1, 1, 1]);
    close(klTokens(OLD, REF, mask, 'k1'), [0, 0.5, -1, 0]);
    // d = ref − old = (−0.5, 1, 0): k3 = e^d − d − 1
    close(klTokens(OLD, REF, mask, 'k3'), [0, Math.exp(-0.5) - 0.5, Math.E - 2, 0]);
  });

  it('in the reward: subtracted per token, so each advantage is its return-to-go (γ = λ = 1)', () => {
    const s = sample(0, 0, 1, 1);
    const { prepared, stats } = computeAdvantages([s], scores(1), [], config({ klMode: 'reward' }));
    // rewards on the mask: 0 − 0.1·0.5, 0 + 0.1·1, 1 − 0: A = (1.05, 1.1, 1), values 0
    close(prepared[0]!.advantages, [0, 1.05, 1.1, 1]);
    close(prepared[0]!.returns, [0, 1.05, 1.1, 1]);
    expect(stats.klRef).toBeCloseTo((0.5 - 1 + 0) / 3, 6);
  });

  it('in the loss: the reward is left alone', () => {
    const s = sample(0, 0, 1, 1);
    const { prepared } = computeAdvantages([s], scores(1), [], config({ klMode: 'loss' }));
    close(prepared[0]!.advantages, [0, 1, 1, 1]);
  });

  it('reports the configured estimator (k3), not always k1', () => {
    const s = sample(0, 0, 1, 1);
    const k3 = computeAdvantages([s], scores(1), [], config({ klEstimator: 'k3' })).stats.klRef;
    expect(k3).toBeCloseTo((Math.exp(-0.5) - 0.5 + Math.E - 2) / 3, 6);
  });

  it('a window carries the penalties of its trajectory’s later windows', () => {
    // Two windows of one trajectory: the first's last token also holds the later return (1).
    const a = sample(0, 0, 1, 1);
    const b = sample(0, 0, 1, 1);
    const { prepared } = computeAdvantages([a, b], scores(2), [], config({ klMode: 'reward' }));
    // Window 2 alone: (1.05, 1.1, 1). Window 1: its own (1.05, 1.1, 1) minus 0.1 × window 2's
    // KL sum (−0.5) on its last token: +0.05 everywhere.
    close(prepared[1]!.advantages, [0, 1.05, 1.1, 1]);
    close(prepared[0]!.advantages, [0, 1.1, 1.15, 1.05]);
  });

  it('GRPO with KL in the reward normalises the penalised trajectory scores', () => {
    const c = config({ ...applyAlgorithm(defaultConfig(), 'starpo-grpo'), klCoef: 0.1, klMode: 'reward' });
    // Same rewards, different KL: only the penalty separates them.
    const s0 = sample(0, 0, 1, 1);
    const s1 = sample(1, 0, 1, 1);
    const sc = scores(2);
    sc.oldLogp[1] = REF; // KL 0 for trajectory 1; trajectory 0 has Σ k1 = −0.5
    const { prepared } = computeAdvantages([s0, s1], sc, [], c);
    // scores 1.05 and 1: mean 1.025, unbiased std 0.0354 → ±0.7071
    expect(prepared[0]!.advantages[1]).toBeCloseTo(Math.SQRT1_2, 3);
    expect(prepared[1]!.advantages[1]).toBeCloseTo(-Math.SQRT1_2, 3);
    // In the loss (GRPO's default), equal rewards give no advantage.
    const loss = computeAdvantages([s0, s1], sc, [], { ...c, klMode: 'loss' }).prepared;
    expect(loss[0]!.advantages[1]).toBe(0);
  });
});

describe('ppo-turn (GAE over turns)', () => {
  it('treats running out of turns as terminal: a timed-out trajectory can get a negative advantage', () => {
    // Two turns, both reward 0, cut by the turn limit (done = false); V(s0) = 0.2, V(s1) = 0.5.
    const turn = (j: number): Sample => ({
      ...sample(0, 0, 0, 0),
      turn: j,
      stateIndex: 0,
    });
    const values = [Float32Array.from([0.2, 0, 0, 0]), Float32Array.from([0.5, 0, 0, 0])];
    const sc = { oldLogp: [OLD, OLD], refLogp: [OLD, OLD], values };
    const traj = { done: false, turns: [], group: 0, seed: 0, instruction: '', reward: 0, success: false };
    const c = { ...applyAlgorithm(defaultConfig(), 'ppo-turn'), whiten: false };
    const { prepared } = computeAdvantages([turn(0), turn(1)], sc, [traj], c);
    // γ = λ = 1, next value after the last turn 0: A1 = 0 − 0.5, A0 = (0 + 0.5 − 0.2) + A1 = −0.2
    expect(prepared[1]!.advantages[1]).toBeCloseTo(-0.5, 6);
    expect(prepared[0]!.advantages[1]).toBeCloseTo(-0.2, 6);
  });
});
