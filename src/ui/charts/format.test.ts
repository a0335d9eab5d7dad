// Chart numbers: a smoothed zero prints 0 (the debiased EMA of a success that fell to 0 leaves
// 1e-11 of float noise), log-axis ticks over decades stay distinct, linear ticks keep the
// digits their span needs.
import { describe, expect, it } from 'vitest';
import { formatValue, linearTickFormatter, logTick } from './format.js';
import { debiasedEma } from './smoothing.js';

describe('formatValue', () => {
  it('prints a smoothed success that fell to 0 as 0', () => {
    const success = [0.5, 0.25, ...new Array(48).fill(0)];
    const last = debiasedEma(success, 0.6).at(-1) as number;
    expect(last).toBeGreaterThan(0); // float noise, not a zero
    expect(formatValue(last)).toBe('0');
    expect(formatValue(0)).toBe('0');
  });

  it('keeps small values that are real on their own scale', () => {
    expect(formatValue(2.5e-5, 3e-5)).toBe('2.50e-5');
    expect(formatValue(0.123)).toBe('0.123');
    expect(formatValue(1234)).toBe('1234');
    expect(formatValue(Number.NaN)).toBe('–');
  });
});

describe('axis ticks', () => {
  it('log ticks over decades are distinct', () => {
    const ticks = [1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10].map(logTick);
    expect(ticks).toEqual(['1e-5', '1e-4', '0.001', '0.01', '0.1', '1', '10']);
    expect(new Set([0.002, 0.005, 0.02].map(logTick)).size).toBe(3);
    expect(logTick(2.5e-6)).toBe('2.5e-6');
  });

  it('linear ticks keep the digits of a narrow span and print 0 at zero', () => {
    const f = linearTickFormatter([3.9698, 3.9712]);
    expect(f(3.9698)).not.toBe(f(3.9712));
    expect(linearTickFormatter([0, 1])(1e-17)).toBe('0');
    expect(linearTickFormatter([0, 1])(0.5)).toBe('0.5');
  });
});
