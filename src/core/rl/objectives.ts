// The policy objectives as one table: which update an iteration runs once its samples are
// scored — the clipped surrogate (PPO, GRPO and their variants: per token or, with
// `ratioLevel` sequence, per sequence as GSPO), or DPO on each group's best and worst
// trajectory. Each update loop reads top to bottom in optimize.ts. A config's objective is named
// by its advantage estimator's row (core/variants/estimators `objective`): the `none` estimator feeds DPO,
// which scores pairs, not advantages; nothing here reads the switch's strings.
import type { Config } from '../config.js';
import type { Adam } from '../model/adam.js';
import type { Model } from '../model/params.js';
import type { Rng } from '../rng.js';
import { estimatorOf, type ObjectiveName } from '../variants/estimators.js';
import type { CriticHost } from './criticHost.js';
import { dpoUpdate, ppoUpdate, type UpdateOptions, type UpdateReport } from './optimize.js';
import type { PreparedSample } from './samples.js';

/** The models an update may use: the policy and its optimizer, the critic where it lives (null without one). */
export interface UpdateModels {
  policy: Model;
  policyOpt: Adam;
  critic: CriticHost | null;
}

export type { ObjectiveName };

export interface ObjectiveSpec {
  name: ObjectiveName;
  /** One line for the docs. */
  label: string;
  /** The iteration's optimizer steps. `trainPolicy` is false during critic warm-up. */
  update(
    prepared: readonly PreparedSample[],
    models: UpdateModels,
    config: Config,
    trainPolicy: boolean,
    rng: Rng,
    opts?: UpdateOptions,
  ): Promise<UpdateReport>;
}

export const OBJECTIVES: Readonly<Record<ObjectiveName, ObjectiveSpec>> = {
  'clipped-surrogate': {
    name: 'clipped-surrogate',
    label: 'clipped surrogate over minibatches (critic steps first), per token or per sequence',
    update: (prepared, m, config, trainPolicy, rng, opts) =>
      ppoUpdate(prepared, m, config, trainPolicy, rng, opts),
  },
  dpo: {
    name: 'dpo',
    label: 'online DPO on each group’s best and worst trajectory against the reference',
    update: (prepared, m, config, _trainPolicy, rng, opts) =>
      dpoUpdate(prepared, m.policy, m.policyOpt, config, rng, opts?.lr),
  },
};

/** The objective a config selects: the one its advantage estimator feeds. */
export function objectiveOf(config: Pick<Config, 'advantage'>): ObjectiveSpec {
  const name = estimatorOf(config).objective;
  const o = OBJECTIVES[name];
  if (!o) throw new Error(`unknown objective "${name}" (advantage "${config.advantage}")`);
  return o;
}
