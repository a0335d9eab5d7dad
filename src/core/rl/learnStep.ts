// An iteration's update (iteration.ts step 5): the config's objective (objectives.ts) with the
// check that the weights it stepped to are finite, and the models it moves. The snapshot to
// return to and what a non-finite update costs are the trainer's (faults.ts).
import type { Config } from '../config.js';
import type { Model } from '../model/params.js';
import type { Rng } from '../rng.js';
import { weightsFinite } from './faults.js';
import { objectiveOf, type UpdateModels } from './objectives.js';
import type { UpdateOptions, UpdateReport } from './optimize.js';
import type { ReferenceApart } from './referenceHost.js';
import type { PreparedSample } from './samples.js';

/** The models of an update and the frozen reference the samples are scored against. */
export interface LearnModels extends UpdateModels {
  reference: Model;
  /** A copy of the reference in a second worker that scores a share of its groups (referenceHost.ts). */
  referenceApart?: ReferenceApart | null;
}

/** The policy's and the critic's weights are all finite (one readback when both are here). */
async function finiteAfter(m: LearnModels): Promise<boolean> {
  const host = m.critic;
  if (!host || host.inThread) return weightsFinite([m.policy, host?.model ?? null]);
  const [policy, critic] = await Promise.all([weightsFinite([m.policy]), host.finite()]);
  return policy && critic;
}

/**
 * The config's objective's update (`trainPolicy` false: the critic only, during its warm-up).
 * Finite losses and gradients can still step into NaN/Inf weights (a huge learning rate): the
 * report then says so in `nonFinite`, as for a non-finite step.
 */
export async function checkedUpdate(
  prepared: readonly PreparedSample[],
  m: LearnModels,
  c: Config,
  trainPolicy: boolean,
  rng: Rng,
  opts: UpdateOptions = {},
): Promise<UpdateReport> {
  const report = await objectiveOf(c).update(prepared, m, c, trainPolicy, rng, opts);
  if (!report.nonFinite && !(await finiteAfter(m)))
    report.nonFinite = 'the weights were not finite after the update';
  return report;
}
