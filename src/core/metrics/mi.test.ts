import { describe, expect, it } from 'vitest';
import type { Trajectory, TurnRecord } from '../trajectory.js';
import { miFromMatrix, miPairs } from './mi.js';

describe('MI proxy', () => {
  it('is log N with perfect retrieval when each thinking fits only its own prompt', () => {
    const L = [
      [0, -100, -100],
      [-100, 0, -100],
      [-100, -100, 0],
    ];
    const r = miFromMatrix(L);
    expect(r.mi).toBeCloseTo(Math.log(3), 6);
    expect(r.retrievalAcc).toBe(1);
  });

  it('is 0 when thinking scores the same under every prompt (template collapse)', () => {
    const L = [
      [-5, -5],
      [-2, -2],
    ];
    const r = miFromMatrix(L);
    expect(r.mi).toBeCloseTo(0, 10);
  });

  it('matches a hand-computed 2×2 case', () => {
    // row 0: L00 − (lse(0, −1) − ln 2) = −ln(1 + e^−1) + ln 2 = 0.379885
    // row 1: L11 = −1 against lse(−2, −1): −1 − (−1 + ln(1 + e^−1)) + ln 2 = 0.379885
    const r = miFromMatrix([
      [0, -1],
      [-2, -1],
    ]);
    expect(r.mi).toBeCloseTo(Math.log(2) - Math.log(1 + Math.exp(-1)), 6);
    expect(r.retrievalAcc).toBe(1);
  });
});

describe('miPairs', () => {
  const CLOSE = 99;
  const traj = (group: number, prompt: number[], think: number[]): Trajectory => ({
    group,
    seed: group,
    instruction: '',
    reward: 0,
    success: false,
    done: true,
    turns: [{ promptIds: prompt, responseIds: [...think, CLOSE, 5] } as unknown as TurnRecord],
  });

  it('uses distinct prompts only: 2 groups × 4 rollouts give 2 pairs, not 8 with repeats', () => {
    const trajs = [0, 0, 0, 0, 1, 1, 1, 1].map((g, i) => traj(g, [1, 2, 3 + g], [10 + i]));
    const pairs = miPairs(trajs, 8, CLOSE);
    expect(pairs.map((p) => p.promptIds)).toEqual([
      [1, 2, 3],
      [1, 2, 4],
    ]);
    expect(pairs.map((p) => p.thinkIds)).toEqual([[10], [14]]);
  });

  it('counts two groups with the same prompt once (Bandit has two prompts) and caps at n', () => {
    const trajs = [traj(0, [7], [1]), traj(1, [7], [2]), traj(2, [8], [3]), traj(3, [9], [4])];
    expect(miPairs(trajs, 8, CLOSE)).toHaveLength(3);
    expect(miPairs(trajs, 2, CLOSE).map((p) => p.thinkIds)).toEqual([[1], [3]]);
  });
});
