// The learning half of an iteration once its rollouts are filtered (trainer.ts steps 3–4): the
// kept trajectories as training samples (batch.ts: history windows, or turns), their old and
// reference log-probs and values, advantages (core/variants/estimators), and the objective's update
// (objectives.ts) with the check that the weights it stepped to are finite. The snapshot to
// return to and what a non-finite update costs are the trainer's (faults.ts).
import { now } from '../clock.js';
import type { Config } from '../config.js';
import type { MetricRow } from '../metrics/keys.js';
import type { Model } from '../model/params.js';
import type { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import { trainingSamples } from './batch.js';
import { weightsFinite } from './faults.js';
import { objectiveOf, type UpdateModels } from './objectives.js';
import type { UpdateOptions, UpdateReport } from './optimize.js';
import { computeAdvantages, scoreSamples } from './prepare.js';
import type { ReferenceApart } from './referenceHost.js';
import type { Trajectory } from './rollout.js';
import type { PreparedSample } from './samples.js';

/** The models of an update and the frozen reference the samples are scored against. */
export interface LearnModels extends UpdateModels {
  reference: Model;
  /** A copy of the reference in a second worker that scores a share of its groups (referenceHost.ts). */
  referenceApart?: ReferenceApart | null;
}

/**
 * The kept trajectories as scored samples with their advantages; writes the batch's actor/klRef
 * (and critic/explainedVar with a critic) into `row`. The policy must still have the weights
 * that sampled: its old log-probs come from the sampler.
 */
export async function preparedBatch(
  row: MetricRow,
  kept: readonly Trajectory[],
  m: LearnModels,
  tok: Tokenizer,
  c: Config,
): Promise<PreparedSample[]> {
  // Windows of the turns the rollout prompts kept (DPO sums a trajectory's windows).
  const t0 = now();
  const samples = trainingSamples(tok, kept, c);
  const host = m.critic;
  const scores = await scoreSamples(
    samples,
    m.policy,
    m.reference,
    host?.inThread ? host.model : null,
    c.temperature,
    {
      sampled: true,
      ...(host && !host.inThread ? { apart: host } : {}),
      ...(m.referenceApart ? { reference: m.referenceApart } : {}),
    },
  );
  const { prepared, stats } = computeAdvantages(samples, scores, kept, c);
  row['actor/klRef'] = stats.klRef;
  if (m.critic) row['critic/explainedVar'] = stats.explainedVar;
  row['time/scoringMs'] = now() - t0;
  return prepared;
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
