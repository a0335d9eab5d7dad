// The rollout filter's side of an iteration, driven by its row of FILTERS (filter.ts): the
// groups rolled out — P, or ⌈P/ratio⌉ when oversampling — and, for a row with more than one
// batch, DAPO's dynamic sampling (Yu et al. 2025): P more groups while fewer than P have any
// reward spread, up to the row's `batches`; then the trajectories of the groups the row keeps,
// and the 2σ outlier drop (a switch of its own). The frozen control never refills: its policy
// cannot move, so more rollouts would only cost time (frozenControl.ts).
import type { Config } from '../config.js';
import type { Rng } from '../rng.js';
import { dropOutliers, filterOf, groupsWithSpread } from './filter.js';
import { isFrozenControl } from './frozenControl.js';
import type { RolloutStats, Trajectory } from './rollout.js';

/** An iteration's rollouts, with the number of groups rolled out (0 … rolled − 1). */
export interface FilterRollout {
  trajectories: Trajectory[];
  stats: RolloutStats;
  rolled: number;
}

/** Rolls out groups `from` … `from + count − 1` of the iteration, N rollouts each. */
export type RollGroups = (
  from: number,
  count: number,
) => Promise<{ trajectories: Trajectory[]; stats: RolloutStats }>;

/** Each group's trajectory rewards, groups 0 … n − 1. */
export const rewardsByGroup = (trajs: readonly Trajectory[], n: number): number[][] =>
  Array.from({ length: n }, (_, g) => trajs.filter((t) => t.group === g).map((t) => t.reward));

const addStats = (a: RolloutStats, b: RolloutStats): RolloutStats => ({
  tokens: a.tokens + b.tokens,
  envSteps: a.envSteps + b.envSteps,
  sampleMs: a.sampleMs + b.sampleMs,
  envMs: a.envMs + b.envMs,
});

/** The iteration's rollouts as the config's filter asks: its first batch, then any refills. */
export async function rollOutForFilter(
  c: Pick<Config, 'groups' | 'filterMode' | 'filterRatio' | 'lr'>,
  rollGroups: RollGroups,
): Promise<FilterRollout> {
  const filter = filterOf(c.filterMode);
  let rolled = filter.rollOut(c.groups, c.filterRatio);
  let { trajectories, stats } = await rollGroups(0, rolled);
  const batches = isFrozenControl(c) ? 1 : filter.batches;
  for (
    let batch = 1;
    batch < batches && groupsWithSpread(rewardsByGroup(trajectories, rolled)) < c.groups;
    batch++
  ) {
    const more = await rollGroups(rolled, c.groups);
    trajectories = [...trajectories, ...more.trajectories];
    stats = addStats(stats, more.stats);
    rolled += c.groups;
  }
  return { trajectories, stats, rolled };
}

/**
 * The trajectories trained on: those of the groups the filter keeps (`rng` draws the `random`
 * order's), less the 2σ outliers when `outlierDrop` is on. `keptRatio` is the filter's kept
 * groups ÷ groups rolled out (1 without a filter).
 */
export function keptTrajectories(
  r: FilterRollout,
  c: Pick<Config, 'groups' | 'filterMode' | 'filterRatio' | 'filterOrder' | 'filterTopP' | 'outlierDrop'>,
  rng: Rng,
): { kept: Trajectory[]; keptRatio: number } {
  let kept = r.trajectories;
  const f = filterOf(c.filterMode).select(rewardsByGroup(r.trajectories, r.rolled), c, rng);
  if (f) {
    const keptSet = new Set(f.keptGroups);
    kept = kept.filter((t) => keptSet.has(t.group));
  }
  if (c.outlierDrop) {
    const idx = dropOutliers(kept.map((t) => t.reward));
    kept = idx.map((i) => kept[i] as Trajectory);
  }
  return { kept, keptRatio: f ? f.keptRatio : 1 };
}
