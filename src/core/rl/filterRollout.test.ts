import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import { Rng } from '../rng.js';
import { FILTERS } from '../variants/filters.js';
import { keptTrajectories, type RollGroups, rollOutForFilter } from './filterRollout.js';
import type { Trajectory } from './rollout.js';

const stats = { tokens: 10, envSteps: 2, sampleMs: 1, envMs: 1 };

/**
 * A fake rollout of N = 2 per group: group g's rewards from `rewardsOf(g)`; records each call's
 * (from, count).
 */
function fakeRollout(rewardsOf: (g: number) => [number, number]) {
  const calls: [number, number][] = [];
  const roll: RollGroups = async (from, count) => {
    calls.push([from, count]);
    const trajectories: Trajectory[] = [];
    for (let g = from; g < from + count; g++)
      for (const reward of rewardsOf(g)) trajectories.push({ group: g, reward } as Trajectory);
    return { trajectories, stats };
  };
  return { calls, roll };
}

const config = (over: Partial<ReturnType<typeof defaultConfig>>) => ({
  ...defaultConfig(),
  groups: 4,
  ...over,
});

describe('rollOutForFilter', () => {
  it('rolls out ⌈P/ratio⌉ groups when oversampling, P otherwise, in one batch', async () => {
    const over = fakeRollout(() => [0, 1]);
    const r = await rollOutForFilter(config({ filterMode: 'oversample', filterRatio: 0.3 }), over.roll);
    expect(over.calls).toEqual([[0, 14]]);
    expect(r.rolled).toBe(14);
    const sub = fakeRollout(() => [0, 1]);
    expect((await rollOutForFilter(config({ filterMode: 'subsample' }), sub.roll)).rolled).toBe(4);
    expect(sub.calls).toEqual([[0, 4]]);
  });

  it('refills P groups at a time while fewer than P have spread, up to the row’s batches (DAPO)', async () => {
    // Only groups 0, 5 and 9 have spread: 2 after the first batch, 3 after the second; the third
    // batch is the last the row allows.
    const spread = new Set([0, 5, 9]);
    const f = fakeRollout((g) => (spread.has(g) ? [0, 1] : [1, 1]));
    const r = await rollOutForFilter(config({ filterMode: 'dynamic' }), f.roll);
    expect(FILTERS.dynamic.batches).toBe(3);
    expect(f.calls).toEqual([
      [0, 4],
      [4, 4],
      [8, 4],
    ]);
    expect(r.rolled).toBe(12);
    expect(r.trajectories).toHaveLength(24);
    expect(r.stats).toEqual({ tokens: 30, envSteps: 6, sampleMs: 3, envMs: 3 });
  });

  it('stops refilling once P groups have spread, and never refills the frozen control', async () => {
    const enough = fakeRollout((g) => (g < 4 ? [1, 1] : [0, 1]));
    expect((await rollOutForFilter(config({ filterMode: 'dynamic' }), enough.roll)).rolled).toBe(8);
    const frozen = fakeRollout(() => [1, 1]);
    expect((await rollOutForFilter(config({ filterMode: 'dynamic', lr: 0 }), frozen.roll)).rolled).toBe(4);
    expect(frozen.calls).toEqual([[0, 4]]);
  });
});

describe('keptTrajectories', () => {
  it('keeps the groups the row selects, with its kept ratio, and 1 with no filter', async () => {
    // Group spreads: 0 none, 1 and 3 some, 2 none: dynamic sampling keeps groups 1 and 3.
    const f = fakeRollout((g) => (g % 2 === 1 ? [0, 1] : [1, 1]));
    const c = config({ filterMode: 'dynamic', lr: 0 });
    const r = await rollOutForFilter(c, f.roll);
    const k = keptTrajectories(r, c, new Rng(1));
    expect(k.kept.map((t) => t.group)).toEqual([1, 1, 3, 3]);
    expect(k.keptRatio).toBe(0.5);
    const off = keptTrajectories(r, { ...c, filterMode: 'off' }, new Rng(1));
    expect(off).toEqual({ kept: r.trajectories, keptRatio: 1 });
  });
});
