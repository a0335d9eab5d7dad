// The rollout/* and reasoning/* metrics of one iteration's trajectories (keys.ts names them).

import { mean as meanOr, meanStd, ZERO_STD } from '../stats.js';
import type { Trajectory } from '../trajectory.js';
import { distinct2, modalShare, mutualInformation } from './reasoning.js';

/** An empty iteration's metrics are 0, not NaN. */
const mean = (xs: readonly number[]): number => meanOr(xs, 0);

/** Tokens of a response before `</think>` (all of them when it never closes). */
export function thinkTokenCount(responseIds: readonly number[], thinkCloseId: number): number {
  const k = responseIds.indexOf(thinkCloseId);
  return k < 0 ? responseIds.length : k;
}

export function rolloutMetrics(trajs: readonly Trajectory[], thinkCloseId: number): Record<string, number> {
  const turns = trajs.flatMap((t) => t.turns);
  const outcomes = turns.flatMap((t) => t.outcomes);
  const groups = new Map<number, number[]>();
  for (const t of trajs) groups.set(t.group, [...(groups.get(t.group) ?? []), t.reward]);
  const thinks = turns.map((t) => t.parsed.think);
  const firstActions = trajs.map(
    (t) => [t.seed, (t.turns[0]?.actions[0] ?? '(none)').toLowerCase().trim()] as const,
  );
  return {
    'rollout/successRate': mean(trajs.map((t) => (t.success ? 1 : 0))),
    'rollout/returnMean': mean(trajs.map((t) => t.reward)),
    'rollout/inGroupRewardStd': mean([...groups.values()].map((r) => meanStd(r, 0).std)),
    // TRL's frac_reward_zero_std: groups whose rewards are all equal (a single rollout counts).
    'rollout/zeroStdShare': mean([...groups.values()].map((r) => (meanStd(r, 0).std < ZERO_STD ? 1 : 0))),
    'rollout/responseLength': mean(turns.map((t) => t.responseIds.length)),
    'rollout/thinkLength': mean(turns.map((t) => thinkTokenCount(t.responseIds, thinkCloseId))),
    'rollout/formatValidRate': mean(turns.map((t) => (t.parsed.formatOk ? 1 : 0))),
    'rollout/actionEffectiveRate': mean(outcomes.map((o) => (o.effective ? 1 : 0))),
    'rollout/malformedRate': mean(turns.map((t) => (t.penalised ? 1 : 0))),
    'reasoning/distinct2': distinct2(thinks),
    'reasoning/modalThinkShare': modalShare(thinks),
    'reasoning/actionMi': mutualInformation(firstActions),
  };
}

/**
 * Success on the paired rollouts, the first `groups` groups (every arm of a comparison rolls out
 * these same start states, whatever else it rolls out), and the between-group spread of their
 * group success rates (unbiased std over the groups; 0 for a single group): the echo-trap
 * detector's series and the units of its noise bound.
 */
export function pairedSuccess(
  trajs: readonly Pick<Trajectory, 'group' | 'success'>[],
  groups: number,
): { 'rollout/pairedSuccessRate': number; 'rollout/groupSuccessStd': number } {
  const rates: number[] = [];
  for (let g = 0; g < groups; g++) {
    const ts = trajs.filter((t) => t.group === g);
    if (ts.length > 0) rates.push(mean(ts.map((t) => (t.success ? 1 : 0))));
  }
  return {
    'rollout/pairedSuccessRate': mean(rates),
    'rollout/groupSuccessStd': meanStd(rates, 0).std,
  };
}
