import { describe, expect, it } from 'vitest';
import { distinct2, modalShare, mutualInformation, qualityWeight, thinkingQuality } from './reasoning.js';

describe('reasoning statistics', () => {
  it('distinct-2 counts distinct bigrams over all bigrams', () => {
    // "a b c" → ab, bc; "a b a" → ab, ba: 3 distinct of 4.
    expect(distinct2(['a b c', 'a b a'])).toBe(0.75);
    expect(distinct2(['one'])).toBe(0);
  });

  it('modal share is the share of the commonest string', () => {
    expect(modalShare(['go  left', 'go left', 'turn', 'Go left'])).toBe(0.75);
    expect(modalShare([])).toBe(0);
  });

  it('action MI is log 2 for a state-determined binary action and 0 for a constant one', () => {
    const dependent: [number, string][] = [
      [0, 'left'],
      [0, 'left'],
      [1, 'right'],
      [1, 'right'],
    ];
    expect(mutualInformation(dependent)).toBeCloseTo(Math.log(2), 10);
    const constant: [number, string][] = [
      [0, 'left'],
      [1, 'left'],
    ];
    expect(mutualInformation(constant)).toBe(0);
  });

  it('thinking quality rewards grounded thinking that agrees with the action', () => {
    const obs = 'a yellow key 2 steps right';
    expect(thinkingQuality('the yellow key is right, turn right', obs, ['turn right'])).toBeGreaterThan(0.6);
    expect(thinkingQuality('nothing matters here', obs, ['go forward'])).toBe(0);
    expect(thinkingQuality('', obs, ['go forward'])).toBe(0);
    expect(qualityWeight(0.5)).toBeCloseTo(1, 10);
    expect(qualityWeight(1)).toBeGreaterThan(1.7);
  });
});
