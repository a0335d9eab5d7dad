// StarPO-S against vanilla StarPO in three named arms, because "StarPO-S is more
// stable" can mean three different comparisons once the filter shrinks the batch:
// - paper: filter the P groups rolled out, then train the kept batch in RAGEN's minibatches —
//   RAGEN keeps 2 of 8 groups (32 trajectories) and makes ONE step of 32 where vanilla makes 4
//   (agent_trainer.py _filter_rollout, ppo_mini_batch_size 32): fewer steps, as the paper compared;
// - steps-matched: the same filter, but as many optimizer steps as vanilla, each on a share of
//   the kept batch (fewer samples per step);
// - samples-matched: roll out ⌈P/ratio⌉ groups and keep the top P, so the kept batch is as
//   large as vanilla's: the same steps and samples per step.
// Each arm is a setting of two existing switches (filterMode, stepsPerIteration), so every
// config names exactly one arm; runs report actor/optimizerSteps and actor/samplesPerStep.
import type { Config } from '../config.js';

export type FilterArm = 'paper' | 'steps-matched' | 'samples-matched';

export interface FilterArmSpec {
  name: FilterArm;
  /** Short label for titles: "paper arm", "steps matched", "samples matched". */
  label: string;
  /** One line: what is matched and what is not. */
  summary: string;
}

export const FILTER_ARMS: Readonly<Record<FilterArm, FilterArmSpec>> = {
  paper: {
    name: 'paper',
    label: 'paper arm',
    summary:
      'filter, then the kept batch in RAGEN’s minibatches: fewer optimizer steps than vanilla (RAGEN: 1 step of 32 vs 4)',
  },
  'steps-matched': {
    name: 'steps-matched',
    label: 'steps matched',
    summary: 'filter, then as many optimizer steps as vanilla, each on fewer samples',
  },
  'samples-matched': {
    name: 'samples-matched',
    label: 'samples matched',
    summary: 'roll out P/ratio groups and keep P: the same optimizer steps and samples per step as vanilla',
  },
};

/**
 * The optimizer steps per iteration of the unfiltered (vanilla) run with these settings: the
 * fixed count when set, else epochs × ⌈P·N / minibatch⌉ (one sample per trajectory; history
 * windows add samples).
 */
export function vanillaSteps(
  c: Pick<Config, 'stepsPerIteration' | 'epochs' | 'groups' | 'groupSize' | 'minibatch'>,
): number {
  if (c.stepsPerIteration > 0) return c.stepsPerIteration;
  return c.epochs * Math.ceil((c.groups * c.groupSize) / c.minibatch);
}

/**
 * The switches that make `arm` against a vanilla run of `vanilla`'s budget: paper = subsample
 * with the kept batch in minibatches (stepsPerIteration 0); steps-matched = subsample with
 * vanilla's step count; samples-matched = oversample with vanilla's stepsPerIteration.
 */
export function filterArmOverrides(
  arm: FilterArm,
  vanilla: Pick<Config, 'stepsPerIteration' | 'epochs' | 'groups' | 'groupSize' | 'minibatch'>,
): Pick<Config, 'filterMode' | 'stepsPerIteration'> {
  switch (arm) {
    case 'paper':
      return { filterMode: 'subsample', stepsPerIteration: 0 };
    case 'steps-matched':
      return { filterMode: 'subsample', stepsPerIteration: vanillaSteps(vanilla) };
    case 'samples-matched':
      return { filterMode: 'oversample', stepsPerIteration: vanilla.stepsPerIteration };
  }
}

/**
 * The arm a config runs, read off `filterArmOverrides`: the first arm whose switches on the
 * config's own budget are the config's (null when none is: the filter off, top-p or dynamic).
 */
export function filterArmOf(
  c: Pick<Config, 'filterMode' | 'stepsPerIteration' | 'epochs' | 'groups' | 'groupSize' | 'minibatch'>,
): FilterArm | null {
  const arms = Object.keys(FILTER_ARMS) as FilterArm[];
  const agrees = (arm: FilterArm) => {
    const o = filterArmOverrides(arm, c);
    return o.filterMode === c.filterMode && o.stepsPerIteration === c.stepsPerIteration;
  };
  return arms.find(agrees) ?? null;
}
