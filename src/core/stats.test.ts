// Means and standard deviations against hand-computed values, and what an empty list gives.
import { describe, expect, it } from 'vitest';
import { Rng } from './rng.js';
import { bootstrapMean, fisherLess, mean, meanStd, signedRank, wilsonInterval } from './stats.js';

describe('stats', () => {
  it('mean of a list, NaN or the given value when empty', () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(mean(new Float32Array([0.5, 1.5]))).toBe(1);
    expect(mean([])).toBeNaN();
    expect(mean([], 0)).toBe(0);
  });

  it('meanStd: unbiased std, 0 for one value, `empty` for none', () => {
    // [2, 4, 4, 4, 5, 5, 7, 9]: mean 5, squared deviations sum to 32, 32 / 7.
    const r = meanStd([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(r.mean).toBe(5);
    expect(r.std).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(meanStd([3])).toEqual({ mean: 3, std: 0 });
    const none = meanStd([]);
    expect(none.mean).toBeNaN();
    expect(none.std).toBeNaN();
    expect(meanStd([], 0)).toEqual({ mean: 0, std: 0 });
  });

  it('wilsonInterval by hand: 6 of 8 at 95%', () => {
    // p = 0.75, z² = 3.8416: centre (0.75 + 0.2401) / 1.4802 = 0.668896; half-width
    // (1.96 / 1.4802) · sqrt(0.1875 / 8 + 3.8416 / 256) = 1.324145 · 0.196071 = 0.259626.
    const [lo, hi] = wilsonInterval(6, 8);
    expect(lo).toBeCloseTo(0.40927, 5);
    expect(hi).toBeCloseTo(0.928522, 5);
    expect(wilsonInterval(0, 16)[0]).toBe(0);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it('fisherLess by hand: 2 of 12 against 9 of 12', () => {
    // Margins: 11 events in 24, 12 drawn for A. P(X ≤ 2) = Σ_{x=0..2} C(11,x)·C(13,12−x)/C(24,12):
    // C(24,12) = 2704156; x=0: 1·0 (C(13,12) = 13) → 13; x=1: 11·78 = 858; x=2: 55·286 = 15730.
    // (13 + 858 + 15730) / 2704156 = 16601 / 2704156 = 0.0061390.
    expect(fisherLess(2, 12, 9, 12)).toBeCloseTo(16601 / 2704156, 9);
    // Equal counts are no evidence: P(X ≤ 6) for 6 of 12 against 6 of 12 is above one half.
    expect(fisherLess(6, 12, 6, 12)).toBeGreaterThan(0.5);
    expect(fisherLess(0, 8, 0, 8)).toBe(1);
  });

  it('signedRank by hand: exact tails over the 2⁴ sign patterns', () => {
    // Differences 3, −1, 2, 4: ranks of |d| are 3, 1, 2, 4; W+ = 3 + 2 + 4 = 9 of 10. Patterns
    // with W+ ≥ 9: {1,2,3,4} sums 10 and {2,3,4} sums 9 → 2 of 16.
    const r = signedRank([3, -1, 2, 4, 0]);
    expect(r).toMatchObject({ n: 4, wPlus: 9 });
    expect(r.pGreater).toBeCloseTo(2 / 16, 12);
    expect(r.pLess).toBeCloseTo(15 / 16, 12);
    // Ties take average ranks: |1|, |1| share rank 1.5.
    expect(signedRank([1, -1, 2]).wPlus).toBeCloseTo(1.5 + 3, 12);
  });

  it('bootstrapMean is seeded and brackets the mean', () => {
    const xs = [0.1, 0.4, 0.35, 0.8, 0.2, 0.55];
    const a = bootstrapMean(xs, new Rng(3));
    expect(bootstrapMean(xs, new Rng(3))).toEqual(a);
    expect(a[0]).toBeLessThan(mean(xs));
    expect(a[1]).toBeGreaterThan(mean(xs));
    expect(bootstrapMean([0.5, 0.5], new Rng(1))).toEqual([0.5, 0.5]);
  });
});
