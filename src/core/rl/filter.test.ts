import { describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import { spreadGroups } from '../variants/filters/dynamic.js';
import { filterGroups } from '../variants/filters/groups.js';
import { topPGroups } from '../variants/filters/topP.js';
import { FILTER_NAMES, FILTERS, usesKeepRatio } from '../variants/filters.js';
import { dropOutliers, groupsToKeep, groupsToRollOut, groupsWithSpread, zeroStdShare } from './filter.js';

// Unbiased stds: g0 0, g1 0.57735, g2 0.5, g3 0.60759 (hand-computed).
const rewards = [
  [1, 1, 1, 1],
  [0, 1, 0, 1],
  [0, 0, 0, 1],
  [1, 0, -0.1, 1],
];

describe('filterGroups', () => {
  it('keeps the highest-std groups', () => {
    const r = filterGroups(rewards, 2);
    expect(r.keptGroups).toEqual([1, 3]);
    expect(r.keptRatio).toBe(0.5);
    expect(r.all[3]!.std).toBeCloseTo(0.60759, 4);
    expect(r.chosen.std).toBeCloseTo((0.57735 + 0.60759) / 2, 4);
    expect(r.chosen.mean).toBeCloseTo((0.5 + 0.475) / 2, 6);
  });

  it('keeps as many groups at random with the random order, seeded', () => {
    const eight = Array.from({ length: 8 }, (_, g) => [g % 2, 1, 0, (g * 7) % 3]);
    const a = filterGroups(eight, 2, 'random', new Rng(5));
    expect(a.keptGroups).toHaveLength(2);
    expect(a.keptRatio).toBe(0.25);
    expect(filterGroups(eight, 2, 'random', new Rng(5)).keptGroups).toEqual(a.keptGroups);
    // Over many draws every group is kept sometimes: not the std ranking.
    const rng = new Rng(9);
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++)
      for (const g of filterGroups(eight, 2, 'random', rng).keptGroups) seen.add(g);
    expect(seen.size).toBe(8);
    expect(() => filterGroups(eight, 2, 'random')).toThrow(/needs an Rng/);
  });

  it('keeps the lowest-std groups in reverse order', () => {
    expect(filterGroups(rewards, 2, 'lowest-std').keptGroups).toEqual([0, 2]);
  });

  it('breaks ties by group index', () => {
    expect(
      filterGroups(
        [
          [0, 1],
          [1, 1],
          [1, 0],
        ],
        1,
      ).keptGroups,
    ).toEqual([0]);
  });

  it('keeps floor(ratio·P) groups when subsampling and P when oversampling', () => {
    expect(groupsToKeep(8, 8, 'subsample', 0.25)).toBe(2);
    expect(groupsToKeep(8, 8, 'subsample', 0.3)).toBe(2);
    expect(groupsToKeep(3, 3, 'subsample', 0.25)).toBe(1);
    expect(groupsToRollOut(8, 'oversample', 0.25)).toBe(32);
    expect(groupsToRollOut(8, 'oversample', 0.3)).toBe(27);
    expect(groupsToKeep(32, 8, 'oversample', 0.25)).toBe(8);
    expect(groupsToRollOut(8, 'subsample', 0.25)).toBe(8);
    expect(groupsToKeep(8, 8, 'off', 0.25)).toBe(8);
    // Top-p and dynamic sampling keep by the rewards: no count, at most all.
    expect(groupsToKeep(8, 8, 'top-p', 0.25)).toBe(8);
    expect(groupsToRollOut(8, 'dynamic', 0.25)).toBe(8);
    expect(() => groupsToRollOut(8, 'sometimes' as never, 0.25)).toThrow(
      'unknown rollout filter "sometimes"',
    );
  });

  it('reports the share of zero-std groups', () => {
    expect(zeroStdShare(filterGroups(rewards, 4).all)).toBe(0.25);
  });
});

describe('dropOutliers', () => {
  it('drops trajectories beyond 2σ of the batch mean', () => {
    // 19 zeros and one 10: mean 0.5, population std √(4.75) = 2.179; |10 − 0.5| > 4.36.
    const r = Array(19).fill(0).concat([10]);
    expect(dropOutliers(r)).toEqual([...Array(19).keys()]);
    expect(dropOutliers([1, 1, 1])).toEqual([0, 1, 2]);
  });
});

describe('RAGEN-2 top-p and DAPO dynamic sampling', () => {
  // Unbiased variances: [1,0,1,0] 1/3; [1,1,1,1] 0; [1,0,0,0] 1/4; [0,0,0,0] 0; [1,1,0,0] 1/3.
  const rewards = [
    [1, 0, 1, 0],
    [1, 1, 1, 1],
    [1, 0, 0, 0],
    [0, 0, 0, 0],
    [1, 1, 0, 0],
  ];

  it('top-p keeps groups by variance until value × total − 0.01, never a zero-variance one, by hand', () => {
    // Candidates 0, 4 (1/3 each; tie → lower index first), 2 (1/4); total 11/12 = 0.91667.
    // value 0.9: threshold 0.815: 1/3 → 2/3 (< 0.815) → + 1/4 = 0.9167: keeps 0, 4, 2.
    expect(topPGroups(rewards, 0.9).keptGroups).toEqual([0, 2, 4]);
    // value 0.6: threshold 0.54: 1/3 → 2/3 ≥ 0.54: keeps 0, 4.
    expect(topPGroups(rewards, 0.6).keptGroups).toEqual([0, 4]);
    // value 0.3: threshold 0.265: the first group alone reaches it.
    const one = topPGroups(rewards, 0.3);
    expect(one.keptGroups).toEqual([0]);
    expect(one.keptRatio).toBeCloseTo(1 / 5, 9);
    // No group with any variance: none kept.
    expect(
      topPGroups(
        [
          [1, 1],
          [0, 0],
        ],
        0.9,
      ).keptGroups,
    ).toEqual([]);
  });

  it('dynamic sampling keeps the first P groups with any spread, dropping the rest', () => {
    expect(groupsWithSpread(rewards)).toBe(3);
    expect(spreadGroups(rewards, 2).keptGroups).toEqual([0, 2]);
    expect(spreadGroups(rewards, 8).keptGroups).toEqual([0, 2, 4]);
    expect(spreadGroups([[0, 0]], 1).keptGroups).toEqual([]);
  });
});

describe('FILTERS and their counts (core/variants/filters)', () => {
  it('has a row for every filter name, whose functions do what its plain counts say', () => {
    expect(Object.keys(FILTERS)).toEqual([...FILTER_NAMES]);
    for (const f of Object.values(FILTERS)) {
      // P = 8 at a keep ratio of 0.25: oversampling rolls out 32, a kept share is 2 of 8.
      expect(f.rollOut(8, 0.25)).toBe(f.oversamples ? 32 : 8);
      if (f.keepsShare) expect(f.keeps?.(8, 8, 0.25)).toBe(2);
      if (!usesKeepRatio(f)) expect(f.keeps?.(8, 8, 0.25) ?? 8).toBe(8);
    }
  });

  it('says in its words (the tour’s) whether it filters, and what an update then sees', () => {
    const c = { groups: 1, filterRatio: 0.5, filterOrder: 'highest-std' as const, filterTopP: 0.9 };
    for (const f of Object.values(FILTERS)) {
      // Only the row that keeps every group may call itself no filter (top-p and dynamic once did).
      expect(f.words.startsWith('no filter'), f.name).toBe(f.select([[0, 1]], c, new Rng(1)) === null);
      if (f.name !== 'off') expect(f.words, f.name).toMatch(/^by .*, so each update sees/);
    }
    expect(FILTERS.oversample.words).toMatch(/as many samples$/);
    expect(FILTERS.subsample.words).toMatch(/fewer samples$/);
  });
});
