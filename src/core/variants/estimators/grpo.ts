// GRPO (RAGEN Eq 5): one z-scored reward per trajectory, grouped by start state; Dr. GRPO (Liu et
// al. 2025) leaves out the division by the group's std (`normAdvByStd`).
import { groupNormalize } from './math.js';
import type { EstimatedAdvantages, EstimatorInput, EstimatorVariant } from './variant.js';

function grpoAdvantages(x: EstimatorInput): EstimatedAdvantages {
  const { samples } = x;
  // Normalised over trajectories, not samples: a trajectory cut into windows counts once, with
  // its whole KL penalty (verl sums the token-level rewards into GRPO's score).
  const firstOf = new Map<number, number>();
  samples.forEach((s, i) => {
    if (!firstOf.has(s.traj)) firstOf.set(s.traj, i);
  });
  const reps = [...firstOf.values()];
  const byTraj = new Map<number, number>();
  groupNormalize(
    reps.map((i) => x.penalised(i, true)),
    reps.map((i) => samples[i]!.group),
    undefined,
    x.normByStd,
  ).forEach((a, j) => {
    byTraj.set(samples[reps[j]!]!.traj, a);
  });
  return {
    advantages: samples.map((s) => s.lossMask.map((m) => m * (byTraj.get(s.traj) as number))),
    returns: samples.map((s) => s.lossMask.map((m) => m * s.reward)),
  };
}

export const grpo: EstimatorVariant<'grpo'> = {
  name: 'grpo',
  label: 'group-normalised rewards (GRPO)',
  help: 'grpo (group-normalised rewards, no critic)',
  why: 'GRPO needs no critic but gives zero advantage to a group with identical rewards; RAGEN found GRPO collapses earliest',
  critic: false,
  samples: 'trajectory',
  ragen: 'grpo',
  objective: 'clipped-surrogate',
  minGroupSize: 2,
  groupSizeWhy: 'group-normalised advantages compare each reward with its group',
  advantages: grpoAdvantages,
};
