// The update phase of an iteration (cleanrl's "optimize the policy and value network" loop):
// epochs × shuffled minibatches, or a fixed number of optimizer steps per iteration so runs
// with different batch sizes can be step-matched. The policy takes its steps and the critic its
// own on the same minibatches (as far as the policy got): after the policy's in this thread, or
// beside them in the critic's worker (criticHost.ts); during the critic's warm-up only the critic
// steps.
// Optional KL early stop ends the pass when a step's approx KL exceeds the threshold.
import { now } from '../clock.js';
import type { Config } from '../config.js';
import type { MetricKey } from '../metrics/keys.js';
import type { Adam } from '../model/adam.js';
import type { Model } from '../model/params.js';
import type { Rng } from '../rng.js';
import { indicesBy } from '../variants/estimators/math.js';
import { withCovSelection } from './covPass.js';
import type { CriticHost } from './criticHost.js';
import { type DpoBatch, dpoStep } from './dpoStep.js';
import { gradientSplit } from './gradSplit.js';
import { microRowsThatFit } from './microBatch.js';
import { packMinibatch, planMinibatches, planTrajectoryMinibatches } from './minibatchPlan.js';
import type { PreparedSample } from './samples.js';
import {
  type Minibatch,
  type PolicyStepSettings,
  policyStep,
  policyStepSettings,
  type StepMetrics,
  type StepResult,
} from './update.js';

export { packMinibatch, planMinibatches, planTrajectoryMinibatches } from './minibatchPlan.js';

export interface UpdateReport {
  policySteps: number;
  criticSteps: number;
  samplesPerStep: number;
  /**
   * The steps' metrics under their row keys: actor/* averaged over the policy steps taken,
   * critic/* over the critic steps (empty when none was taken).
   */
  means: StepMetrics;
  /** A step hit NaN/Inf: the update stopped there. */
  nonFinite: string | null;
  klStopped: boolean;
  /** Milliseconds in the policy's and the critic's steps (the critic's: 0 without one). */
  policyMs: number;
  criticMs: number;
  /**
   * Milliseconds from the policy's last step until the critic's steps were done: all of them on
   * the serial schedule, only their overhang beside the policy's on two workers (what letting
   * them run on into the next rollout could save at most).
   */
  criticWaitMs: number;
}

/**
 * The metric-row values of an update: the step counts and the steps' own metrics as they are
 * (PPO: actor/pgLoss — the surrogate term alone — clipFrac, approxKl, entropy, gradNorm;
 * DPO: actor/dpoLoss, dpoMargin, dpoAccuracy, entropy, gradNorm; critic/vfLoss).
 */
export function updateMetrics(report: UpdateReport): StepMetrics {
  return {
    'actor/optimizerSteps': report.policySteps,
    'actor/samplesPerStep': report.samplesPerStep,
    ...report.means,
    'time/policyMs': report.policyMs,
    'time/criticMs': report.criticMs,
    'time/criticWaitMs': report.criticWaitMs,
  };
}

/** Adds a step's metrics to the running sums, key by key. */
function accumulate(into: StepMetrics, metrics: StepMetrics): void {
  for (const [k, v] of Object.entries(metrics) as [MetricKey, number][]) into[k] = (into[k] ?? 0) + v;
}

function averaged(sums: StepMetrics, n: number): StepMetrics {
  return n > 0 ? Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / n])) : {};
}

/**
 * One policy step on `whole`: the tokens its loss acts on (Clip-Cov, KL-Cov: covPass.ts), RAGEN-2's
 * gradient split first when `split` is asked (a measurement: its time is not the step's), then
 * the step, its time added to `report.policyMs`.
 */
async function takePolicyStep(
  models: { policy: Model; policyOpt: Adam },
  whole: Minibatch,
  settings: PolicyStepSettings,
  microRows: number,
  rng: Rng,
  report: UpdateReport,
  split = false,
): Promise<StepResult & { split: StepMetrics }> {
  const p0 = now();
  const mb = await withCovSelection(models.policy, whole, settings, rng, microRows);
  const s0 = now();
  const parts = split ? await gradientSplit(models.policy, mb, settings, microRows) : {};
  const s1 = now();
  const p = await policyStep(models.policy, models.policyOpt, mb, settings, microRows);
  report.policyMs += now() - p0 - (s1 - s0);
  return { ...p, split: parts };
}

/** What an update measures besides its steps. */
export interface UpdateOptions {
  /** The policy's step size this iteration (the trainer's warm-up: runSchedule.ts); the config's `lr` if not given. */
  lr?: number;
  /** RAGEN-2's gradient split on the first minibatch, before its step (gradSplit.ts). */
  gradientSplit?: boolean;
}

/**
 * PPO-style update (all advantage estimators). Clip-Cov's random choice of tokens draws from
 * `rng` after the minibatches are planned, so runs with other losses draw exactly as before.
 */
export async function ppoUpdate(
  samples: readonly PreparedSample[],
  models: { policy: Model; policyOpt: Adam; critic: CriticHost | null },
  config: Config,
  trainPolicy: boolean,
  rng: Rng,
  opts: UpdateOptions = {},
): Promise<UpdateReport> {
  const plan = planTrajectoryMinibatches(samples, config, rng);
  const settings = policyStepSettings(config, opts.lr);
  const report: UpdateReport = {
    policySteps: 0,
    criticSteps: 0,
    samplesPerStep: 0,
    means: {},
    nonFinite: null,
    klStopped: false,
    policyMs: 0,
    criticMs: 0,
    criticWaitMs: 0,
  };
  const sums: StepMetrics = {};
  const split: StepMetrics = {};
  const minibatches = plan.map((idx) =>
    packMinibatch(
      idx.map((i) => samples[i] as PreparedSample),
      models.policy.config.context,
    ),
  );
  // A minibatch larger than the backend's memory holds steps in micro-batches (one when it fits).
  const micro = minibatches.map((mb) => microRowsThatFit(models.policy, mb.T, mb.mask));
  // The critic steps on the minibatches the policy reached: it reads nothing the policy writes and
  // the policy nothing of the critic's, so stepping the critic after the policy, or beside it in
  // another worker, gives the numbers of stepping both on each minibatch in turn (issue 40).
  // The critic is handed each minibatch as the policy reaches it (all of them during its warm-up):
  // in this thread it steps after the policy (criticHost.ts LocalCritic), in its own worker beside it.
  const critic =
    models.critic?.steps({ lr: config.criticLr, valueClip: config.valueClip, gradClip: config.gradClip }) ??
    null;
  let reached = minibatches.length;
  if (!trainPolicy) for (const [k, mb] of minibatches.entries()) critic?.post(mb, micro[k] as number);
  else
    for (const [k, mb] of minibatches.entries()) {
      critic?.post(mb, micro[k] as number);
      const splitHere = k === 0 && opts.gradientSplit === true;
      const p = await takePolicyStep(models, mb, settings, micro[k] as number, rng, report, splitHere);
      Object.assign(split, p.split);
      if (!p.ok) {
        report.nonFinite = `policy loss ${p.loss}, gradient norm ${p.gradNorm}`;
        reached = k + 1;
        break;
      }
      report.policySteps++;
      accumulate(sums, p.metrics);
      if (config.klEarlyStop > 0 && (p.metrics['actor/approxKl'] ?? 0) > config.klEarlyStop) {
        report.klStopped = true;
        reached = k + 1;
        break;
      }
    }
  const w0 = now();
  const c = critic ? await critic.finish() : null;
  report.criticWaitMs = c ? now() - w0 : 0;
  if (c) {
    report.criticSteps = c.steps;
    report.criticMs = c.ms;
    report.nonFinite ??= c.nonFinite;
  }
  const seen = minibatches.slice(0, reached).reduce((n, mb) => n + mb.b, 0);
  report.means = {
    ...averaged(sums, report.policySteps),
    ...averaged(c?.sums ?? {}, report.criticSteps),
    ...split,
  };
  const steps = Math.max(report.policySteps, report.criticSteps);
  report.samplesPerStep = steps > 0 ? seen / steps : 0;
  return report;
}

/** A DPO pair of trajectories, each as the indices of its samples (its history windows). */
export interface DpoPair {
  chosen: number[];
  rejected: number[];
}

/**
 * Chosen/rejected pairs: the best and worst trajectory (by reward) of each group, ties
 * skipped; the first met wins ties for best and worst. Samples of one trajectory (windows)
 * stay together.
 */
export function dpoPairs(samples: readonly Pick<PreparedSample, 'traj' | 'group' | 'reward'>[]): DpoPair[] {
  const groups = indicesBy(samples.map((s) => s.group));
  const pairs: DpoPair[] = [];
  for (const idx of groups.values()) {
    const byTraj = indicesBy(idx.map((i) => samples[i]!.traj));
    const trajs = [...byTraj.values()].map((js) => js.map((j) => idx[j] as number));
    const reward = (t: number[]) => samples[t[0] as number]!.reward;
    let best = trajs[0] as number[];
    let worst = best;
    for (const t of trajs) {
      if (reward(t) > reward(best)) best = t;
      if (reward(t) < reward(worst)) worst = t;
    }
    if (reward(best) > reward(worst)) pairs.push({ chosen: best, rejected: worst });
  }
  return pairs;
}

function seqSum(s: PreparedSample, a: Float32Array): number {
  let sum = 0;
  for (let t = 0; t < s.lossMask.length; t++) if (s.lossMask[t] === 1) sum += a[t] as number;
  return sum;
}

/** Packs pairs into one DPO minibatch: chosen trajectories' rows, then rejected ones'. */
export function packDpoBatch(
  samples: readonly PreparedSample[],
  pairs: readonly DpoPair[],
  context: number,
): DpoBatch {
  const P = pairs.length;
  const slots = [...pairs.map((p) => p.chosen), ...pairs.map((p) => p.rejected)];
  const rows = slots.flat();
  const mb = packMinibatch(
    rows.map((i) => samples[i] as PreparedSample),
    context,
  );
  const owner = new Float32Array(2 * P * rows.length);
  let r = 0;
  slots.forEach((members, j) => {
    for (let k = 0; k < members.length; k++) owner[j * rows.length + r++] = 1;
  });
  const refSum = (members: number[]) =>
    members.reduce(
      (a, i) => a + seqSum(samples[i] as PreparedSample, (samples[i] as PreparedSample).refLogp),
      0,
    );
  return {
    pairs: P,
    rows: rows.length,
    T: mb.T,
    tokens: mb.tokens,
    mask: mb.mask,
    owner,
    refChosen: Float32Array.from(pairs.map((p) => refSum(p.chosen))),
    refRejected: Float32Array.from(pairs.map((p) => refSum(p.rejected))),
  };
}

/** Consecutive pairs in chunks of at most `rows` rows (chosen and rejected windows), at least one pair each. */
export function pairChunks(pairs: readonly DpoPair[], rows: number): DpoPair[][] {
  const out: DpoPair[][] = [];
  let chunk: DpoPair[] = [];
  let n = 0;
  for (const p of pairs) {
    const r = p.chosen.length + p.rejected.length;
    if (chunk.length > 0 && n + r > rows) {
      out.push(chunk);
      chunk = [];
      n = 0;
    }
    chunk.push(p);
    n += r;
  }
  if (chunk.length > 0) out.push(chunk);
  return out;
}

/** Online DPO update over the groups' best/worst pairs. */
export async function dpoUpdate(
  samples: readonly PreparedSample[],
  policy: Model,
  optimizer: Adam,
  config: Config,
  rng: Rng,
  lr = config.lr,
): Promise<UpdateReport> {
  const pairs = dpoPairs(samples);
  const report: UpdateReport = {
    policySteps: 0,
    criticSteps: 0,
    samplesPerStep: 0,
    means: {},
    nonFinite: null,
    klStopped: false,
    policyMs: 0,
    criticMs: 0,
    criticWaitMs: 0,
  };
  const plan = planMinibatches(
    pairs.length,
    { ...config, minibatch: Math.max(1, Math.floor(config.minibatch / 2)) },
    rng,
  );
  const sums: StepMetrics = {};
  let seen = 0;
  for (const idx of plan) {
    const stepPairs = idx.map((i) => pairs[i] as DpoPair);
    const whole = packDpoBatch(samples, stepPairs, policy.config.context);
    const micro = microRowsThatFit(policy, whole.T, whole.mask);
    const batch =
      whole.rows <= micro
        ? whole
        : pairChunks(stepPairs, micro).map((chunk) => packDpoBatch(samples, chunk, policy.config.context));
    const t0 = now();
    const { dpoBeta: beta, gradClip, temperature } = config;
    const r = await dpoStep(policy, optimizer, batch, { lr, beta, gradClip, temperature });
    report.policyMs += now() - t0;
    if (!r.ok) {
      report.nonFinite = `DPO loss ${r.loss}, gradient norm ${r.gradNorm}`;
      break;
    }
    report.policySteps++;
    seen += whole.rows;
    accumulate(sums, r.metrics);
  }
  report.means = averaged(sums, report.policySteps);
  report.samplesPerStep = report.policySteps > 0 ? seen / report.policySteps : 0;
  return report;
}
