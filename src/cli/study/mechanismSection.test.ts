// The study report's mechanism section (round 13 on): present only when runs log RAGEN-2's
// gradient split, with the split's first crossings and their lead before the trap, by hand.
import { describe, expect, it } from 'vitest';
import type { ReportRun } from './reportRuns.js';
import { mechanismSection } from './studyReport.js';

const run = (seed: number, collapse: number | null, split?: ReportRun['split']) =>
  ({
    cell: 'vanilla',
    seed,
    collapseIteration: collapse,
    verdict: { verdict: collapse === null ? 'held' : 'trapped' },
    mechanism: { onsets: { entropyMoved: 40 }, fall: collapse === null ? null : collapse + 5 },
    ...(split ? { split } : {}),
  }) as unknown as ReportRun;

describe('the mechanism section', () => {
  it('is absent for runs made before the split (round 12 reads as it was written)', () => {
    expect(mechanismSection([run(1, 120), run(2, null)])).toEqual([]);
  });

  it('gives each run’s onsets and its split’s first crossings with their lead', () => {
    const split = {
      measured: 20,
      hasKl: true,
      hasEntropy: false,
      taskBelowKl: 90,
      taskBelowEntropy: null,
      below: 4,
    };
    const lines = mechanismSection([
      run(401, 122, split),
      run(402, null, { ...split, taskBelowKl: null, below: 0 }),
    ]);
    const text = lines.join('\n');
    expect(text).toContain(
      '| vanilla | 401 | trapped | 127 | never | never | 40 (lead 87) | never | never |',
    );
    expect(text).toContain(
      '| vanilla | 401 | trapped | 122 | 90 (lead 32) | not logged (term off) | 4 of 20 |',
    );
    expect(text).toContain('| vanilla | 402 | held | – | never | not logged (term off) | 0 of 20 |');
  });
});
