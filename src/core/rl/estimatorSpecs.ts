// The advantage estimators' names and the rollouts per group each needs, as plain data that
// imports nothing: config.ts reads them for its option list and its group-size check, and each
// row of estimators.ts's ESTIMATORS (which imports config.ts for its types, so config.ts cannot
// import it back) reads its row here. Callers read these fields instead of comparing an
// estimator's name (DPO is chosen by `advantage: 'none'`, not by the algorithm's name).

/** The `advantage` options, in the form's order. */
export const ADVANTAGE_NAMES = ['gae', 'grpo', 'turn-gae', 'none'] as const;

export type AdvantageName = (typeof ADVANTAGE_NAMES)[number];

/** What an estimator asks of a group before any reward is seen. */
export interface EstimatorNeeds {
  /** The fewest rollouts per group (`groupSize`) it can learn from. */
  minGroupSize: number;
  /** Why it needs them, for the error that refuses fewer (empty when 1 is enough). */
  why: string;
}

export const ESTIMATOR_NEEDS: Readonly<Record<AdvantageName, EstimatorNeeds>> = {
  gae: { minGroupSize: 1, why: '' },
  grpo: { minGroupSize: 2, why: 'group-normalised advantages compare each reward with its group' },
  'turn-gae': { minGroupSize: 1, why: '' },
  none: { minGroupSize: 2, why: 'online DPO pairs the best and worst trajectory of a group' },
};
