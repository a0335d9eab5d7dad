// StarPO-S uncertainty filtering (RAGEN Eq 7; `_filter_rollout` in agent_trainer.py) and the
// filters beside it, as the trainer asks them: each filter is one file under core/variants/filters/
// (its counts, its selection, its words), listed in core/variants/filters.ts; filterRollout.ts
// rolls out what a row asks. Here: the counts by a `filterMode` value, groups with reward spread,
// and the secondary note's 2σ outlier drop over the batch, a separate switch.
import type { Config } from '../config.js';
import { ZERO_STD } from '../stats.js';
import { groupStats } from '../variants/filters/groups.js';
import { FILTERS, type FilterVariant, type GroupStats } from '../variants/filters.js';
import { rowOf } from '../variants/registry.js';

export type FilterMode = Config['filterMode'];

/** Groups rolled out per iteration (first batch) for P = `groups`: the filter's row says. */
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

/** Groups whose rewards are not all equal (std above ~0): the ones a group-relative advantage can learn from. */
export function groupsWithSpread(rewards: readonly (readonly number[])[]): number {
  return groupStats(rewards).filter((s) => s.std >= ZERO_STD).length;
}

/** The filter a `filterMode` value names. */
export function filterOf(mode: FilterMode): FilterVariant {
  return rowOf(FILTERS, mode, 'rollout filter');
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
