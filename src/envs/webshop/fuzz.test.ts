// token_set_ratio and SequenceMatcher against values printed by Python's difflib running
// thefuzz 0.19's algorithm (fixtures below), plus hand-checkable cases.
import { describe, expect, it } from 'vitest';
import { normalizeColor } from './colors.js';
import { fullProcess, roundHalfEven, sequenceRatio, tokenSetRatio } from './fuzz.js';

describe('sequenceRatio (difflib)', () => {
  it('matches difflib on short strings', () => {
    // abxcd / abcd: blocks "ab" + "cd" = 4 of 9 chars → 8/9.
    expect(sequenceRatio('abxcd', 'abcd')).toBeCloseTo(0.888888888889, 12);
    expect(sequenceRatio('qabxcd', 'abycdf')).toBeCloseTo(0.666666666667, 12);
    expect(sequenceRatio('', '')).toBe(1);
  });

  it('applies the autojunk heuristic when b has 200+ characters', () => {
    const a = 'the quick brown fox jumps over the lazy dog '.repeat(6);
    const b = 'a lazy dog sleeps while the quick brown fox runs around the yard '.repeat(4);
    // Every character of b is "popular", so difflib finds no match at all (Python: 0.0; with
    // autojunk=False it would be 0.5916).
    expect(sequenceRatio(a, b)).toBe(0);
  });
});

describe('tokenSetRatio', () => {
  const cases: [string, string, number][] = [
    ['tea tree extract', 'tea tree', 100],
    ['sulfate free', 'paraben free', 58],
    ['navy blue', 'blue', 100],
    ['long lasting', 'long-lasting', 100],
    ['fast charging', 'quick charge', 48],
    ['machine wash', 'hand wash', 67],
    ['Café Crème!', 'cafe creme', 89],
    ['water resistant', 'waterproof', 40],
    ['x-large', 'xx-large', 93],
    ['16.9 fl oz', '16 oz', 100],
    ['gluten free', 'sugar free', 57],
    ['dark roast', 'medium roast', 67],
    ['', 'abc', 0],
    ['organic cotton', 'cotton organic', 100],
  ];
  it.each(cases)('%j vs %j = %i', (a, b, want) => {
    expect(tokenSetRatio(a, b)).toBe(want);
  });

  it('processes like fuzzywuzzy: Latin-1 letters deleted, other symbols to spaces', () => {
    expect(fullProcess('  Café – Crème_Brûlée! ')).toBe('caf   crme_brle');
  });
});

describe('helpers', () => {
  it('rounds halves to even like Python', () => {
    expect([0.5, 1.5, 2.5, 85.5, 86.5, 2.4, 2.6].map(roundHalfEven)).toEqual([0, 2, 2, 86, 86, 2, 3]);
  });

  it('normalizes colours by the first listed colour contained', () => {
    expect(normalizeColor('navy blue')).toBe('blue');
    expect(normalizeColor('light grey heather')).toBe('grey');
    expect(normalizeColor('16 oz')).toBe('16 oz');
  });
});
