// Groups by the spread of their rewards, as the filters read them: each group's mean, std and
// max; a selection of groups with the kept groups' means (RAGEN's rollout/chosen_in_group_*);
// and the paper's std ranking, which subsample and oversample share (RAGEN Eq 7,
// `_filter_rollout` in agent_trainer.py).
import type { Rng } from '../../rng.js';
import { meanStd } from '../../stats.js';
import type { FilterResult, FilterSettings, GroupStats } from './variant.js';

export type { FilterResult, GroupStats } from './variant.js';

/**
 * Which groups a std filter keeps: the highest in-group std (the paper), the lowest (the reverse
 * ablation), or `random` — the same number of groups drawn at random, the control that tells the
 * std selection apart from merely training on fewer groups.
 */
export type FilterOrder = FilterSettings['filterOrder'];

/** Reward statistics of each group; `rewards[g]` lists group g's trajectory rewards. */
export function groupStats(rewards: readonly (readonly number[])[]): GroupStats[] {
  return rewards.map((r, group) => {
    const { mean, std } = meanStd(r, 0);
    return { group, mean, std, max: r.length > 0 ? Math.max(...r) : 0 };
  });
}

/** A selection of `keptGroups` (ascending) out of `all`, with the kept groups' mean statistics. */
export function selection(all: GroupStats[], keptGroups: number[]): FilterResult {
  const kept = all.filter((s) => keptGroups.includes(s.group));
  const avg = (f: (s: GroupStats) => number) =>
    kept.length > 0 ? kept.reduce((t, s) => t + f(s), 0) / kept.length : 0;
  return {
    keptGroups,
    keptRatio: all.length > 0 ? keptGroups.length / all.length : 0,
    all,
    chosen: { std: avg((s) => s.std), mean: avg((s) => s.mean), max: avg((s) => s.max) },
  };
}

/**
 * Chooses `keep` groups by std. Ties in std are broken by group index (lower first), so the choice
 * is deterministic; `random` draws the kept groups from `rng` (required for it).
 */
export function filterGroups(
  rewards: readonly (readonly number[])[],
  keep: number,
  order: FilterOrder = 'highest-std',
  rng?: Rng,
): FilterResult {
  const all = groupStats(rewards);
  let ranked: GroupStats[];
  if (order === 'random') {
    if (!rng) throw new Error('filterGroups: the random order needs an Rng');
    ranked = rng.shuffle([...all]);
  } else {
    const sign = order === 'highest-std' ? -1 : 1;
    ranked = [...all].sort((a, b) => sign * (a.std - b.std) || a.group - b.group);
  }
  const kept = ranked.slice(0, Math.max(0, Math.min(keep, all.length)));
  return selection(
    all,
    kept.map((s) => s.group).sort((a, b) => a - b),
  );
}
