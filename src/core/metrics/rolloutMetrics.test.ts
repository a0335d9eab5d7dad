// rollout/zeroStdShare (TRL's frac_reward_zero_std) by hand: the share of groups whose
// rollouts all got the same reward.
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../trajectory.js';
import { rolloutMetrics } from './rolloutMetrics.js';

const traj = (group: number, reward: number): Trajectory => ({
  group,
  seed: group,
  instruction: '',
  turns: [],
  reward,
  success: reward > 0,
  done: true,
});

describe('rolloutMetrics', () => {
  it('reports the share of groups with zero reward std', () => {
    // group 0: all 1 (zero std), group 1: 0 and 1, group 2: all −0.1 (zero std), group 3: 0, 0.5
    const trajs = [
      ...[1, 1, 1].map((r) => traj(0, r)),
      ...[0, 1, 1].map((r) => traj(1, r)),
      ...[-0.1, -0.1, -0.1].map((r) => traj(2, r)),
      ...[0, 0.5, 0].map((r) => traj(3, r)),
    ];
    expect(rolloutMetrics(trajs, 0)['rollout/zeroStdShare']).toBe(0.5);
    expect(rolloutMetrics(trajs.slice(3, 6), 0)['rollout/zeroStdShare']).toBe(0);
  });
});
