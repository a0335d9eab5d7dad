// What one advantage estimator is, everywhere it is read: its name and the rollouts per group it
// needs (config.ts's check), how samples are built and whether a critic trains (prepare.ts,
// batch.ts, runSchedule.ts, model/memory.ts), the objective its samples feed (rl/objectives.ts),
// RAGEN's name for it (cli/commands/export-ragen.ts) and its advantage math. One file per
// estimator beside this one; ../estimators.ts lists them. Plain typed-array code, below config.ts.

/** What an estimator reads of a sample (core/rl/samples.ts Sample has these and more). */
export interface EstimatorSample {
  /** Its trajectory, and the group (start state) of that trajectory. */
  traj: number;
  group: number;
  /** The trajectory's scalar reward. */
  reward: number;
  /** 1 on the agent's tokens, in target coordinates [n−1]. */
  lossMask: Float32Array;
  /** The target index of the turn's state, valued by the critic (turn-level samples). */
  stateIndex: number;
}

/** What an estimator sees of the scored batch. */
export interface EstimatorInput {
  samples: readonly EstimatorSample[];
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

/** The objectives (rl/objectives.ts OBJECTIVES), named here so that an estimator can say which it feeds. */
export type ObjectiveName = 'clipped-surrogate' | 'dpo';

/** One advantage estimator. */
export interface EstimatorVariant<Name extends string = string> {
  name: Name;
  /** One line for the form and docs. */
  label: string;
  /** Its clause in the setting's explanation (ui/explain/texts.ts joins them), its name first. */
  help: string;
  /** Why one would pick it, a clause of the same explanation (absent for none). */
  why?: string;
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
  /** The fewest rollouts per group (`groupSize`) it learns from; config.ts refuses fewer. */
  minGroupSize: number;
  /** Why it needs them, for the error that refuses fewer (empty when 1 is enough). */
  groupSizeWhy: string;
  advantages(x: EstimatorInput): EstimatedAdvantages;
}

/** Zeros in each sample's target coordinates. */
export const zeros = (samples: readonly EstimatorSample[]): Float32Array[] =>
  samples.map((s) => new Float32Array(s.lossMask.length));
