// StarPO-S uncertainty filtering (RAGEN Eq 7; `_filter_rollout` in agent_trainer.py): rank
// groups by the unbiased std of their trajectory rewards (format penalties included) and keep
// the top share. Two ways to use it: `subsample` filters the P groups rolled out (the paper,
// fewer samples per step), `oversample` rolls out ⌈P/ratio⌉ groups and keeps P (the kept
// batch is as large as an unfiltered one); RAGEN-2's top-p and DAPO's dynamic sampling beside
// them. The FILTERS table holds each filter's counts (groups rolled out, batches, kept; the plain
// facts of them from filterSpecs.ts) and its selection; filterRollout.ts rolls out what a row
// asks. Plus the secondary note's 2σ outlier drop over the batch, a separate switch.
import type { Config } from '../config.js';
import type { Rng } from '../rng.js';
import { meanStd } from '../stats.js';
import { ZERO_STD } from './advantages.js';
import { FILTER_COUNTS, type FilterCounts } from './filterSpecs.js';

export type FilterMode = Config['filterMode'];
/**
 * Which groups the filter keeps: the highest in-group std (the paper), the lowest (the reverse
 * ablation), or `random` — the same number of groups drawn at random, the control that tells the
 * std selection apart from merely training on fewer groups.
 */
export type FilterOrder = 'highest-std' | 'lowest-std' | 'random';

/** Per-group statistics of trajectory rewards. */
export interface GroupStats {
  group: number;
  mean: number;
  std: number;
  max: number;
}

export interface FilterResult {
  /** Indices of the kept groups, in ascending order. */
  keptGroups: number[];
  /** Kept groups ÷ groups rolled out. */
  keptRatio: number;
  all: GroupStats[];
  /** Mean of the kept groups' std, mean and max reward (RAGEN's rollout/chosen_in_group_*). */
  chosen: { std: number; mean: number; max: number };
}

/** Groups rolled out per iteration (first batch) for P = `groups`: the filter's row says (FILTERS). */
export function groupsToRollOut(groups: number, mode: FilterMode, ratio: number): number {
  return filterOf(mode).rollOut(groups, ratio);
}

/**
 * Groups kept of `rolledOut` for a target of P = `targetGroups`, by the filter's row: all (off),
 * floor(ratio·rolled) as RAGEN's topk, at least 1 (subsample), P (oversample); filters that keep
 * by the rewards (top-p, dynamic) have no count and keep at most all.
 */
export function groupsToKeep(
  rolledOut: number,
  targetGroups: number,
  mode: FilterMode,
  ratio: number,
): number {
  return filterOf(mode).keeps?.(rolledOut, targetGroups, ratio) ?? rolledOut;
}

/** Reward statistics of each group; `rewards[g]` lists group g's trajectory rewards. */
export function groupStats(rewards: readonly (readonly number[])[]): GroupStats[] {
  return rewards.map((r, group) => {
    const { mean, std } = meanStd(r, 0);
    return { group, mean, std, max: r.length > 0 ? Math.max(...r) : 0 };
  });
}

/**
 * Chooses groups to keep. Ties in std are broken by group index (lower first), so the choice
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

/** A selection of `keptGroups` (ascending) out of `all`, with the kept groups' mean statistics. */
function selection(all: GroupStats[], keptGroups: number[]): FilterResult {
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

/** Groups whose rewards are not all equal (std above ~0): the ones a group-relative advantage can learn from. */
export function groupsWithSpread(rewards: readonly (readonly number[])[]): number {
  return groupStats(rewards).filter((s) => s.std >= ZERO_STD).length;
}

/**
 * DAPO's dynamic sampling (Yu et al. 2025): the first `target` groups (by index) whose rewards are
 * not all equal; groups with no spread are dropped whatever their number.
 */
export function spreadGroups(rewards: readonly (readonly number[])[], target: number): FilterResult {
  const all = groupStats(rewards);
  const kept = all
    .filter((s) => s.std >= ZERO_STD)
    .slice(0, target)
    .map((s) => s.group);
  return selection(all, kept);
}

/**
 * RAGEN-2's recommended filter (rollout_filter_strategy top_p, metric reward_variance, prob mode
 * linear, include_zero False, selection eps 0.01): drop the groups with no reward variance, sort
 * the rest by variance (highest first; ties by group index), and keep them in that order until
 * their summed variance reaches `value` × the total − `eps`. Keeps none when no group has any.
 */
export function topPGroups(rewards: readonly (readonly number[])[], value: number, eps = 0.01): FilterResult {
  const all = groupStats(rewards);
  const ranked = all.filter((s) => s.std >= ZERO_STD).sort((a, b) => b.std - a.std || a.group - b.group);
  const total = ranked.reduce((t, s) => t + s.std * s.std, 0);
  const kept: number[] = [];
  let sum = 0;
  for (const s of ranked) {
    if (kept.length > 0 && sum >= value * total - eps) break;
    kept.push(s.group);
    sum += s.std * s.std;
  }
  return selection(
    all,
    kept.sort((a, b) => a - b),
  );
}

/**
 * One rollout filter: how many groups it rolls out for P, and which of them it keeps; its
 * `batches`, `oversamples` and `keepsShare` are its row of FILTER_COUNTS (filterSpecs.ts).
 */
export interface FilterSpec extends FilterCounts {
  name: FilterMode;
  /** One line for the docs. */
  label: string;
  /** How it filtered a recording's groups, in the tour's words ("here: …"). */
  words: string;
  /** Groups of the iteration's first rollout batch for P = `groups` (`ratio`: filterRatio). */
  rollOut(groups: number, ratio: number): number;
  /** How many groups it keeps of `rolledOut`, where that is a count; absent where the rewards decide. */
  keeps?(rolledOut: number, targetGroups: number, ratio: number): number;
  /** The kept groups of those rolled out (`rewards[g]`: group g's trajectory rewards); null keeps all. */
  select(
    rewards: readonly (readonly number[])[],
    c: Pick<Config, 'groups' | 'filterRatio' | 'filterOrder' | 'filterTopP'>,
    rng: Rng,
  ): FilterResult | null;
}

const asMany = (groups: number) => groups;
/** floor(ratio·P) as RAGEN's topk, at least 1. */
const topShare = (rolledOut: number, _target: number, ratio: number) =>
  Math.max(1, Math.floor(ratio * rolledOut + 1e-9));
/** ⌈P/ratio⌉ groups rolled out, P of them kept: the kept batch is as large as an unfiltered one. */
const oversampled = (groups: number, ratio: number) => Math.ceil(groups / ratio - 1e-9);
const target = (rolledOut: number, targetGroups: number) => Math.min(targetGroups, rolledOut);

/** The rollout filters, one row each: a new filter is a row and its function, its counts in filterSpecs.ts. */
export const FILTERS: Readonly<Record<FilterMode, FilterSpec>> = {
  off: {
    ...FILTER_COUNTS.off,
    name: 'off',
    label: 'no filter: every group rolled out is trained on',
    words: 'no filter in this recording',
    rollOut: asMany,
    keeps: (rolledOut) => rolledOut,
    select: () => null,
  },
  subsample: {
    ...FILTER_COUNTS.subsample,
    name: 'subsample',
    label: 'StarPO-S: keep floor(ratio · P) of the P groups by reward std (or at random)',
    words: 'by dropping the rest, so each update sees fewer samples',
    rollOut: asMany,
    keeps: topShare,
    select: (r, c, rng) => filterGroups(r, topShare(r.length, c.groups, c.filterRatio), c.filterOrder, rng),
  },
  oversample: {
    ...FILTER_COUNTS.oversample,
    name: 'oversample',
    label: 'StarPO-S by oversampling: roll out ⌈P / ratio⌉ groups, keep P by reward std',
    words: 'by oversampling, so each update sees as many samples',
    rollOut: oversampled,
    keeps: target,
    select: (r, c, rng) => filterGroups(r, target(r.length, c.groups), c.filterOrder, rng),
  },
  'top-p': {
    ...FILTER_COUNTS['top-p'],
    name: 'top-p',
    label: 'RAGEN-2: keep groups by reward variance until the top-p share of the total',
    words: 'by reward variance up to the top-p share of the total, so each update sees fewer samples',
    rollOut: asMany,
    select: (r, c) => topPGroups(r, c.filterTopP),
  },
  dynamic: {
    ...FILTER_COUNTS.dynamic,
    name: 'dynamic',
    label: 'DAPO’s dynamic sampling: drop groups with no reward spread, roll out more',
    words:
      'by dropping groups without reward spread and rolling out more, so each update sees up to as many samples',
    rollOut: asMany,
    select: (r, c) => spreadGroups(r, c.groups),
  },
};

/** The filter a `filterMode` value names. */
export function filterOf(mode: FilterMode): FilterSpec {
  const f = FILTERS[mode];
  if (!f) throw new Error(`unknown rollout filter "${mode}"`);
  return f;
}

/** Share of groups whose rollouts all scored the same (std ≈ 0). */
export function zeroStdShare(stats: readonly GroupStats[]): number {
  if (stats.length === 0) return 0;
  return stats.filter((s) => s.std < ZERO_STD).length / stats.length;
}

/**
 * The outlier drop (proposed beside RAGEN's paper, not in it): indices of trajectories whose reward lies within
 * `k` standard deviations (population std) of the batch mean. All are kept when std is 0.
 */
export function dropOutliers(rewards: readonly number[], k = 2): number[] {
  const n = rewards.length;
  if (n === 0) return [];
  const mean = rewards.reduce((a, b) => a + b, 0) / n;
  const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / n);
  const idx = rewards.map((_, i) => i);
  if (std < ZERO_STD) return idx;
  return idx.filter((i) => Math.abs((rewards[i] as number) - mean) <= k * std + 1e-12);
}
