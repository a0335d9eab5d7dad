// The update plan: minibatches count trajectories, and a trajectory's samples (its history
// windows) stay together, so the number of optimizer steps does not depend on episode length.
import { describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import { planMinibatches, planTrajectoryMinibatches } from './optimize.js';

/** Samples of 4 trajectories with 3, 2, 1 and 2 windows: sample i belongs to traj[i]. */
const samples = [0, 0, 0, 1, 1, 2, 3, 3].map((traj) => ({ traj }));

describe('planTrajectoryMinibatches', () => {
  it('makes steps × ⌈trajectories / steps⌉ trajectories, windows together', () => {
    const plan = planTrajectoryMinibatches(
      samples,
      { epochs: 1, minibatch: 32, stepsPerIteration: 2 },
      new Rng(1),
    );
    expect(plan).toHaveLength(2);
    const trajOf = (mb: number[]) => [...new Set(mb.map((i) => samples[i]!.traj))].sort();
    // Two trajectories a step; every sample of a trajectory in the same step.
    for (const mb of plan) expect(trajOf(mb)).toHaveLength(2);
    expect([...plan.flat()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const mb of plan)
      for (const t of trajOf(mb))
        expect(mb.filter((i) => samples[i]!.traj === t)).toHaveLength(
          samples.filter((s) => s.traj === t).length,
        );
  });

  it('counts the minibatch in trajectories: 4 trajectories in minibatches of 2 are 2 steps an epoch', () => {
    const plan = planTrajectoryMinibatches(
      samples,
      { epochs: 2, minibatch: 2, stepsPerIteration: 0 },
      new Rng(1),
    );
    expect(plan).toHaveLength(4);
    // Counting windows instead (8 samples in minibatches of 2) would make 4 steps an epoch.
    expect(planMinibatches(8, { epochs: 2, minibatch: 2, stepsPerIteration: 0 }, new Rng(1))).toHaveLength(8);
  });
});
