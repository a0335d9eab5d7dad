// Means and standard deviations against hand-computed values, and what an empty list gives.
import { describe, expect, it } from 'vitest';
import { mean, meanStd, wilsonInterval } from './stats.js';

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
});
