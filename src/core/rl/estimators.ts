// The advantage estimators as one table keyed by the config's `advantage` switch:
// each entry says how samples are built from trajectories, whether a critic is trained, RAGEN's
// name for it (export-ragen), which objective its samples feed (by name: the clipped surrogate
// takes advantages, DPO — the `none` row — takes pairs and no advantage), and computes
// advantages and value targets — advantage math only; the update loops are the objectives
// table's (objectives.ts), which reads `objective` here. The trainer, prepare.ts, batch.ts and
// export-ragen read this table instead of branching on the switch's strings, so a new estimator
// is one entry plus its tests, and its name and group-size need in estimatorSpecs.ts (plain data
// that config.ts reads without importing this file).
// Plain typed-array code; arrays are in target coordinates [n−1] like Sample's.
import type { Config } from '../config.js';
import { gae, groupNormalize, indicesBy, turnGae } from './advantages.js';
import { ESTIMATOR_NEEDS } from './estimatorSpecs.js';
import type { Sample } from './samples.js';

/** What an estimator sees of the scored batch. */
export interface EstimatorInput {
  samples: readonly Sample[];
  /** Critic values per sample (zeros without a critic). */
  values: readonly Float32Array[];
  /** Token rewards, KL penalty included when KL goes in the reward. */
  rewards: readonly Float32Array[];
  /** Sample i's scalar reward with its KL penalty; `whole`: its trajectory's (all windows). */
  penalised(i: number, whole: boolean): number;
  gamma: number;
  lambda: number;
  /** GRPO divides by the group's reward std (false: Dr. GRPO's R − mean). */
  normByStd: boolean;
}

export interface EstimatedAdvantages {
  advantages: Float32Array[];
  returns: Float32Array[];
}

/** The objectives (objectives.ts OBJECTIVES), named here so that an estimator can say which it feeds. */
export type ObjectiveName = 'clipped-surrogate' | 'dpo';

export interface EstimatorSpec {
  name: Config['advantage'];
  /** One line for the form and docs. */
  label: string;
  /** Trains a critic (values, GAE, whitening of its advantages). */
  critic: boolean;
  /**
   * 'trajectory': each trajectory as one sequence, or windows of the rollout's history;
   * 'turn': one sample per turn with only its own state (rollouts then keep one turn too).
   */
  samples: 'trajectory' | 'turn';
  /** RAGEN's `algorithm.adv_estimator`, or null where RAGEN has none (exported as gae). */
  ragen: 'gae' | 'grpo' | null;
  /** The objective its samples feed: the clipped surrogate, or DPO (pairs, no advantage). */
  objective: ObjectiveName;
  /** The fewest rollouts per group it learns from (estimatorSpecs.ts; config.ts refuses fewer). */
  minGroupSize: number;
  advantages(x: EstimatorInput): EstimatedAdvantages;
}

const zeros = (samples: readonly Sample[]): Float32Array[] =>
  samples.map((s) => new Float32Array(s.lossMask.length));

/**
 * GRPO (RAGEN Eq 5): one z-scored reward per trajectory, grouped by start state; Dr. GRPO (Liu et
 * al. 2025) leaves out the division by the group's std.
 */
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

/** GAE over each sample's loss-mask tokens (RAGEN's PPO path; verl compute_gae_advantage_return). */
function tokenGaeAdvantages(x: EstimatorInput): EstimatedAdvantages {
  const advantages: Float32Array[] = [];
  const returns: Float32Array[] = [];
  x.samples.forEach((s, i) => {
    const r = gae(x.rewards[i]!, x.values[i]!, s.lossMask, 1, s.lossMask.length, x.gamma, x.lambda);
    advantages.push(r.advantages);
    returns.push(r.returns);
  });
  return { advantages, returns };
}

/** GAE over the turns of each trajectory, the turn's state valued by the critic (`ppo-turn`). */
function turnGaeAdvantages(x: EstimatorInput): EstimatedAdvantages {
  const { samples } = x;
  const advantages = zeros(samples);
  const returns = zeros(samples);
  for (const idx of indicesBy(samples.map((s) => s.traj)).values()) {
    const turnRewards = idx.map((i) => x.penalised(i, false));
    const values = idx.map((i) => x.values[i]![samples[i]!.stateIndex] ?? 0);
    // Running out of turns or actions is terminal, as in RAGEN (GAE's next value after the
    // last token is 0): bootstrapping a cut trajectory with the value of its own last state
    // (the state after the last action is never scored) made its last advantage r ≥ 0, so
    // timing out could never be punished.
    const r = turnGae(turnRewards, values, x.gamma, x.lambda, 0);
    idx.forEach((i, j) => {
      const s = samples[i]!;
      for (let t = 0; t < s.lossMask.length; t++) {
        if (s.lossMask[t] !== 1) continue;
        advantages[i]![t] = r.advantages[j] as number;
        returns[i]![t] = r.returns[j] as number;
      }
    });
  }
  return { advantages, returns };
}

export const ESTIMATORS: Readonly<Record<Config['advantage'], EstimatorSpec>> = {
  gae: {
    name: 'gae',
    minGroupSize: ESTIMATOR_NEEDS.gae.minGroupSize,
    label: 'critic + GAE over the agent’s tokens',
    critic: true,
    samples: 'trajectory',
    ragen: 'gae',
    objective: 'clipped-surrogate',
    advantages: tokenGaeAdvantages,
  },
  grpo: {
    name: 'grpo',
    minGroupSize: ESTIMATOR_NEEDS.grpo.minGroupSize,
    label: 'group-normalised rewards (GRPO)',
    critic: false,
    samples: 'trajectory',
    ragen: 'grpo',
    objective: 'clipped-surrogate',
    advantages: grpoAdvantages,
  },
  'turn-gae': {
    name: 'turn-gae',
    minGroupSize: ESTIMATOR_NEEDS['turn-gae'].minGroupSize,
    label: 'critic + GAE over turns, one sample per turn',
    critic: true,
    samples: 'turn',
    ragen: null,
    objective: 'clipped-surrogate',
    advantages: turnGaeAdvantages,
  },
  none: {
    name: 'none',
    minGroupSize: ESTIMATOR_NEEDS.none.minGroupSize,
    label: 'none: online DPO on each group’s best and worst trajectory',
    critic: false,
    samples: 'trajectory',
    ragen: null,
    objective: 'dpo',
    advantages: (x) => ({ advantages: zeros(x.samples), returns: zeros(x.samples) }),
  },
};

/** The estimator a config's `advantage` switch selects. */
export function estimatorOf(config: Pick<Config, 'advantage'>): EstimatorSpec {
  const e = ESTIMATORS[config.advantage];
  if (!e) throw new Error(`unknown advantage estimator "${config.advantage}"`);
  return e;
}
