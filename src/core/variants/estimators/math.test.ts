import { describe, expect, it } from 'vitest';
import { Rng } from '../../rng.js';
import { gae, groupNormalize, turnGae, whiten } from './math.js';

const f32 = (xs: number[]) => Float32Array.from(xs);

function expectClose(actual: ArrayLike<number>, expected: number[], digits: number): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(actual[i], `index ${i}`).toBeCloseTo(expected[i]!, digits);
}

describe('gae', () => {
  it('matches a hand-computed 4-token example that skips an env token', () => {
    // mask skips position 2; γ = 0.9, λ = 0.8; worked by hand:
    // pos3: δ = 1 − 0.4 = 0.6, A = 0.6, R = 1.0
    // pos1: δ = 0.9·0.4 − 0.2 = 0.16, A = 0.16 + 0.72·0.6 = 0.592, R = 0.792
    // pos0: δ = 0.9·0.2 − 0.5 = −0.32, A = −0.32 + 0.72·0.592 = 0.10624, R = 0.60624
    const r = gae(f32([0, 0, 0, 1]), f32([0.5, 0.2, 9, 0.4]), f32([1, 1, 0, 1]), 1, 4, 0.9, 0.8);
    const expectA = [0.10624, 0.592, 0, 0.6];
    const expectR = [0.60624, 0.792, 0, 1.0];
    expectClose(r.advantages, expectA, 5);
    expectClose(r.returns, expectR, 5);
  });

  it('with γ = λ = 1 and one terminal reward gives A = R − V', () => {
    const values = [0.3, -0.2, 0.7, 0.1, 0.0, 0.5];
    const r = gae(f32([0, 0, 2, 0, 0, -1]), f32(values), f32([1, 1, 1, 1, 1, 1]), 2, 3, 1, 1);
    expect(Array.from(r.advantages)).toEqual(
      [2 - 0.3, 2 + 0.2, 2 - 0.7, -1 - 0.1, -1 - 0, -1 - 0.5].map((x) => Math.fround(x)),
    );
  });

  it('agrees with a naive loop on random data', () => {
    const rng = new Rng(11);
    const B = 5;
    const T = 17;
    const rewards = Float32Array.from({ length: B * T }, () => (rng.bool(0.2) ? rng.normal() : 0));
    const values = Float32Array.from({ length: B * T }, () => rng.normal());
    const mask = Float32Array.from({ length: B * T }, () => (rng.bool(0.7) ? 1 : 0));
    const { advantages } = gae(rewards, values, mask, B, T, 0.95, 0.9);
    for (let b = 0; b < B; b++) {
      const pos = [...Array(T).keys()].filter((t) => mask[b * T + t] === 1);
      // Naive: A_i = Σ_{l≥0} (γλ)^l δ_{i+l} over the masked sequence.
      const v = pos.map((t) => values[b * T + t]!);
      const delta = pos.map(
        (t, k) => rewards[b * T + t]! + 0.95 * (k + 1 < pos.length ? v[k + 1]! : 0) - v[k]!,
      );
      pos.forEach((t, k) => {
        let a = 0;
        for (let l = 0; k + l < pos.length; l++) a += (0.95 * 0.9) ** l * delta[k + l]!;
        expect(advantages[b * T + t]).toBeCloseTo(a, 4);
      });
    }
  });
});

describe('groupNormalize', () => {
  it('normalises within groups and zeroes a zero-std group', () => {
    // group 0: mean 0.5, unbiased std √(1/3) = 0.57735 → ±0.866025; group 1: std 0 → 0.
    const a = groupNormalize([1, 0, 1, 0, 0.5, 0.5], [0, 0, 0, 0, 1, 1]);
    expectClose(a, [0.866025, -0.866025, 0.866025, -0.866025, 0, 0], 5);
  });

  it('does not depend on the order of groups in the batch', () => {
    const a = groupNormalize([3, 1, 2, 5], [1, 0, 1, 0]);
    const b = groupNormalize([1, 5, 3, 2], [0, 0, 1, 1]);
    expect(a[0]).toBeCloseTo(b[2]!, 6);
    expect(a[1]).toBeCloseTo(b[0]!, 6);
  });
});

describe('whiten', () => {
  it('whitens masked positions with the unbiased variance', () => {
    const w = whiten(f32([1, 2, 3, 99]), f32([1, 1, 1, 0]));
    expectClose(w, [-1, 0, 1, 0], 5);
  });
});

describe('turnGae', () => {
  it('matches a hand-computed 3-turn example', () => {
    // γ = 1, λ = 0.5: A2 = 1 − 0.7 = 0.3; A1 = (0.7 − 0.5) + 0.5·0.3 = 0.35; A0 = (0.5 − 0.2) + 0.5·0.35 = 0.475
    const r = turnGae([0, 0, 1], [0.2, 0.5, 0.7], 1, 0.5);
    expectClose(r.advantages, [0.475, 0.35, 0.3], 10);
    expectClose(r.returns, [0.675, 0.85, 1.0], 10);
  });

  it('bootstraps from the value after a cut episode', () => {
    const r = turnGae([0], [0.2], 0.9, 1, 0.5);
    expect(r.advantages[0]).toBeCloseTo(0.9 * 0.5 - 0.2, 10);
  });
});

describe('groupNormalize without the std (Dr. GRPO)', () => {
  it('gives R − mean within each group, 0 where the group has no spread, by hand', () => {
    // Group 0: 1, 0, 0, 1 → mean 0.5; group 1: 2, 2 → no spread; group 2: 3, 0, 0 → mean 1.
    const a = groupNormalize([1, 0, 0, 1, 2, 2, 3, 0, 0], [0, 0, 0, 0, 1, 1, 2, 2, 2], 1e-6, false);
    expect(Array.from(a)).toEqual([0.5, -0.5, -0.5, 0.5, 0, 0, 2, -1, -1]);
    // With the std (GRPO): group 0's std is 0.57735 → ±0.866.
    expect(groupNormalize([1, 0, 0, 1], [0, 0, 0, 0])[0]).toBeCloseTo(0.5 / Math.sqrt(1 / 3), 5);
  });
});
