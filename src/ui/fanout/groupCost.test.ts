import { describe, expect, it } from 'vitest';
import { groupCost } from './FanoutPanel.js';

describe('what Seeds side by side costs, said before Start', () => {
  const pace = { learner: 3.3, frozen: 1.1 };
  it('counts the runs at the preset’s measured pace, as many at a time as the machine runs', () => {
    // 2 seeds × 200 iterations × 3.3 s, one at a time: 1320 s = 22 minutes.
    expect(groupCost(pace, { n: 2, iters: 200, frozen: false }, 1)).toMatch(
      /^About 22 minutes .*2 run\(s\), 1 at a time/,
    );
    // With their frozen controls: 2 × 200 × 4.4 s = 1760 s ≈ 29 minutes.
    expect(groupCost(pace, { n: 2, iters: 200, frozen: true }, 1)).toMatch(/^About 29 minutes .*4 run\(s\)/);
    // The old default, 4 seeds with frozen lanes: about an hour.
    expect(groupCost(pace, { n: 4, iters: 200, frozen: true }, 1)).toMatch(/^About 59 minutes/);
  });
  it('says when the setup’s pace is not known', () => {
    expect(groupCost(undefined, { n: 3, iters: 50, frozen: false }, 1)).toMatch(
      /not measured for this setup/,
    );
  });
});
