// The banner's bar by hand: 1 of 16 frozen runs passes, 2 of 16 does not, 0 of 8 is too few runs
// to say, a signal a frozen control cannot measure never passes, one that came before the fall in
// fewer than most trapped runs never passes; the sentence says the numbers.
import { describe, expect, it } from 'vitest';
import { parseWarningRates, rateText, type SignalRate, shownInBanner } from './warningRates.js';

const rate = (o: Partial<SignalRate>): SignalRate => ({
  signal: 'malformedRise',
  kind: 'warning',
  frozenFired: 0,
  frozenRuns: 16,
  holdFired: 0,
  holdRuns: 8,
  beforeFall: 0,
  trappedRuns: 0,
  meanLead: null,
  ...o,
});

describe('shownInBanner', () => {
  // A signal that came before the fall in 13 of 24 trapped runs (most).
  const lead = { beforeFall: 13, trappedRuns: 24 };
  it('shows a signal only at ≤ 1 in 16 measured on ≥ 16 frozen runs', () => {
    expect(shownInBanner(rate({ frozenFired: 1, ...lead }))).toBe(true);
    expect(shownInBanner(rate({ frozenFired: 2, ...lead }))).toBe(false);
    expect(shownInBanner(rate({ frozenFired: 1, frozenRuns: 24, ...lead }))).toBe(true);
    expect(shownInBanner(rate({ frozenFired: 0, frozenRuns: 8, ...lead }))).toBe(false);
    expect(shownInBanner(rate({ frozenFired: null, ...lead }))).toBe(false);
    expect(shownInBanner(undefined)).toBe(false);
  });

  it('only where it came before the fall in most trapped runs and rarely in a learner that held', () => {
    // Round 12's record: the modal-think rise came first in 5 of 24 trapped runs: noise to a class.
    expect(shownInBanner(rate({ beforeFall: 5, trappedRuns: 24 }))).toBe(false);
    expect(shownInBanner(rate({ beforeFall: 12, trappedRuns: 24 }))).toBe(false);
    expect(shownInBanner(rate({ beforeFall: 18, trappedRuns: 24 }))).toBe(true);
    // 2 of 16 runs of the learner that held pass, 3 do not; none measured is no bar.
    expect(shownInBanner(rate({ ...lead, holdFired: 2, holdRuns: 16 }))).toBe(true);
    expect(shownInBanner(rate({ ...lead, holdFired: 3, holdRuns: 16 }))).toBe(false);
    expect(shownInBanner(rate({ ...lead, holdRuns: 0 }))).toBe(true);
  });

  it('says its record in words', () => {
    expect(
      rateText(rate({ frozenFired: 1, holdFired: 3, beforeFall: 2, trappedRuns: 4, meanLead: 11.6 })),
    ).toBe(
      'It fired in 1 of 16 frozen runs and in 3 of 8 runs of a learner that held; before the fall in 2 of 4 trapped runs, on average 12 iterations ahead.',
    );
  });

  it('says so when no learner that held was measured (a holding null that failed is not one)', () => {
    expect(rateText(rate({ holdFired: 0, holdRuns: 0, beforeFall: 1, trappedRuns: 2, meanLead: 4 }))).toBe(
      'It fired in 0 of 16 frozen runs (no learner that held has been measured at this setting); before the fall in 1 of 2 trapped runs, on average 4 iterations ahead.',
    );
  });

  it('refuses a file of another format', () => {
    expect(() => parseWarningRates({ format: 'x', version: 1, source: 's', rates: [] })).toThrow();
  });
});
