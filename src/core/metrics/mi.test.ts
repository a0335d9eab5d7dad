import { describe, expect, it } from 'vitest';
import { miFromMatrix } from './mi.js';

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
