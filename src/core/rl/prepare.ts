// Between rollout and update: score the kept samples under the policy (old log-probs), the
// frozen reference and the critic, then compute advantages and value targets per sample
// (cleanrl's "bootstrap value / advantages" block, RAGEN's compute_advantage). Plain arrays.
import type { Config } from '../config.js';
import { qualityWeight, thinkingQuality } from '../metrics/reasoning.js';
import type { Model } from '../model/params.js';
import { defaultGroupRows, type LogpJob, planGroups, scoreBatch, shareGroups } from '../model/scoreBatch.js';
import { meanStd, ZERO_STD } from '../stats.js';
import { indicesBy, whiten } from '../variants/estimators/math.js';
import { type EstimatorInput, estimatorOf } from '../variants/estimators.js';
import type { ReferenceApart } from './referenceHost.js';
import type { Trajectory } from './rollout.js';
import type { PreparedSample, Sample } from './samples.js';

/** A sample with everything the update needs, all [n−1] in target coordinates. */
export interface PrepareStats {
  /** Token mean over the loss mask of KL(π_old ‖ π_ref) by the configured estimator (k1 or k3). */
  klRef: number;
  explainedVar: number;
  /** Mean thinking-quality weight (1 when the thinking critic is off). */
  qualityWeight: number;
}

/** A critic scored in another worker: its model (for the plan) and its values of rows in groups. */
export interface CriticApart {
  model: Model;
  values(rows: readonly (readonly number[])[], maxRows: number): Promise<Float32Array[]>;
}

/**
 * Old, reference and critic scores of each sample. Log-probs are taken at the rollout
 * `temperature` (logits ÷ T), as verl's compute_log_prob and compute_ref_log_prob do, so
 * old log-probs are those of the distribution that was sampled. `sampled: true` (the policy's
 * weights are those that sampled, at this temperature) takes a sample's old log-probs from the
 * sampler where it recorded them all (batch.ts `sampledLogp`); the rest are scored. The three
 * models share one pass per length group (core/model/scoreBatch.ts); a critic `apart` (in its own
 * worker) scores the same groups beside it. Without a critic, a `reference` apart (a copy in the
 * second worker) scores a share of the reference's groups beside this thread's (referenceHost.ts).
 */
export async function scoreSamples(
  samples: readonly Sample[],
  policy: Model,
  reference: Model,
  critic: Model | null,
  temperature = 1,
  options: { sampled?: boolean; apart?: CriticApart; reference?: ReferenceApart } = {},
): Promise<{ oldLogp: Float32Array[]; refLogp: Float32Array[]; values: Float32Array[] }> {
  const rows = samples.map((s) => s.ids);
  const reuse = options.sampled === true && temperature > 0;
  const recorded = samples.map((s) => (reuse ? (s.sampledLogp ?? null) : null));
  const jobs: [LogpJob, LogpJob] = [
    { model: policy, temperature, rows: recorded.map((r) => r === null) },
    { model: reference, temperature },
  ];
  // Only the loss mask's log-probs are read (KL, ratios, DPO sums): the rest come back 0.
  const masks = samples.map((s) => s.lossMask);
  const apart = options.apart;
  let b: Awaited<ReturnType<typeof scoreBatch>>;
  let values: Float32Array[] | null;
  if (options.reference && !critic && !apart) {
    b = await referenceShared(rows, jobs, masks, options.reference);
    values = null;
  } else if (apart) {
    // The critic in its own worker scores the same groups while this thread scores the policies.
    const maxRows = defaultGroupRows(jobs, apart.model, masks);
    // Asked first, so the worker starts before this thread's first group.
    const theirs = apart.values(rows, maxRows);
    [b, values] = await Promise.all([scoreBatch(rows, jobs, null, { masks, maxRows }), theirs]);
  } else {
    b = await scoreBatch(rows, jobs, critic, { masks });
    values = b.values;
  }
  const oldLogp = b.logps[0] as (Float32Array | null)[];
  const refLogp = b.logps[1] as Float32Array[];
  return {
    oldLogp: oldLogp.map((o, i) => o ?? (recorded[i] as Float32Array)),
    refLogp,
    values: values
      ? values.map((v) => v.slice(0, v.length - 1))
      : samples.map((s) => new Float32Array(s.lossMask.length)),
  };
}

/**
 * scoreBatch's scores of `jobs` (the policy's rows, then the reference) with the reference's
 * length groups shared: this thread scores the policy's rows and its share of the reference's
 * groups while `reference` scores the other share. The groups are the ones one pass would plan.
 */
async function referenceShared(
  rows: readonly (readonly number[])[],
  jobs: readonly [LogpJob, LogpJob],
  masks: readonly Float32Array[],
  reference: ReferenceApart,
): ReturnType<typeof scoreBatch> {
  const [policyJob, refJob] = jobs;
  const lengths = rows.map((r) => r.length);
  const context = Math.min(policyJob.model.config.context, refJob.model.config.context);
  const groups = planGroups(lengths, defaultGroupRows([...jobs], null, masks), context);
  const [here, there] = shareGroups(groups, lengths, context);
  const mine = new Array<boolean>(rows.length).fill(false);
  for (const i of here.flat()) mine[i] = true;
  // Asked first, so the worker starts before this thread's first group.
  const asked = there.length > 0 ? reference.logps(rows, there, masks, refJob.temperature) : null;
  const [b, theirs] = await Promise.all([
    scoreBatch(rows, [policyJob, { ...refJob, rows: mine }], null, { masks, groups }),
    asked ?? rows.map(() => null),
  ]);
  const refLogp = (b.logps[1] as (Float32Array | null)[]).map((l, i) => l ?? theirs[i] ?? null);
  return { logps: [b.logps[0] as (Float32Array | null)[], refLogp], values: null };
}

/**
 * Per-token KL(π_old ‖ π_ref) estimates on the loss mask (0 elsewhere), as verl's kl_penalty:
 * k1 = old − ref ("kl"), k3 = e^(ref−old) − (ref−old) − 1 ("low_var_kl", without its ±10 clamp).
 */
export function klTokens(
  oldLogp: Float32Array,
  refLogp: Float32Array,
  mask: Float32Array,
  estimator: Config['klEstimator'],
): Float32Array {
  const out = new Float32Array(mask.length);
  for (let t = 0; t < mask.length; t++) {
    if (mask[t] !== 1) continue;
    const d = (refLogp[t] as number) - (oldLogp[t] as number);
    out[t] = estimator === 'k1' ? -d : Math.exp(d) - d - 1;
  }
  return out;
}

const sum = (a: ArrayLike<number>): number => {
  let x = 0;
  for (let i = 0; i < a.length; i++) x += a[i] as number;
  return x;
};

function concatMasked(samples: readonly { lossMask: Float32Array }[], pick: (i: number) => Float32Array) {
  const xs: number[] = [];
  samples.forEach((s, i) => {
    const a = pick(i);
    for (let t = 0; t < s.lossMask.length; t++) if (s.lossMask[t] === 1) xs.push(a[t] as number);
  });
  return xs;
}

/**
 * KL in the reward (RAGEN's PPO runs; agent_trainer.py apply_kl_penalty): klIn · KL(old ‖ ref)
 * subtracted from every loss-mask token's reward before the estimator sees it (klIn 0: the
 * rewards as they are). A trajectory cut into windows also carries its later windows' penalties
 * on each window's last trained token, as `trajectorySamples` does with later rewards, so with
 * γ = λ = 1 every token's return is the trajectory's return-to-go. GRPO and turn-level GAE see
 * the per-sample sums, through `penalised`.
 */
function klPenalisedRewards(
  samples: readonly Sample[],
  kl: readonly Float32Array[],
  klIn: number,
): Pick<EstimatorInput, 'rewards' | 'penalised'> {
  const klSum = kl.map(sum);
  const laterKl = new Float32Array(samples.length);
  for (const idx of indicesBy(samples.map((s) => s.traj)).values()) {
    let later = 0;
    for (let j = idx.length - 1; j >= 0; j--) {
      const i = idx[j] as number;
      laterKl[i] = later;
      later += klSum[i] as number;
    }
  }
  const rewards = samples.map((s, i) => {
    if (klIn === 0) return s.rewards;
    const r = Float32Array.from(s.rewards);
    const k = kl[i] as Float32Array;
    let last = -1;
    for (let t = 0; t < r.length; t++) {
      if (s.lossMask[t] !== 1) continue;
      r[t] = (r[t] as number) - klIn * (k[t] as number);
      last = t;
    }
    if (last >= 0 && s.turn < 0) r[last] = (r[last] as number) - klIn * (laterKl[i] as number);
    return r;
  });
  /** A sample's scalar reward with its KL penalty (the whole trajectory's for a window). */
  const penalised = (i: number, whole: boolean): number =>
    samples[i]!.reward - klIn * ((klSum[i] as number) + (whole ? (laterKl[i] as number) : 0));
  return { rewards, penalised };
}

/** Whitens the advantages in place over every loss-mask token of the batch (variants/estimators/math.ts whiten). */
function whitenBatch(adv: Float32Array[], samples: readonly Sample[]): void {
  const lens = adv.map((a) => a.length);
  const flat = new Float32Array(lens.reduce((a, b) => a + b, 0));
  const mask = new Float32Array(flat.length);
  let off = 0;
  adv.forEach((a, i) => {
    flat.set(a, off);
    mask.set(samples[i]!.lossMask, off);
    off += a.length;
  });
  const w = whiten(flat, mask);
  off = 0;
  adv.forEach((a, i) => {
    adv[i] = w.slice(off, off + a.length);
    off += a.length;
  });
}

/**
 * Weights each sample's advantages in place by σ(rule-based thinking quality) of its turns (the
 * thinking critic, not in RAGEN's paper); returns the weights' sum.
 */
function weightByThinking(
  adv: Float32Array[],
  samples: readonly Sample[],
  trajs: readonly Trajectory[],
): number {
  let weightSum = 0;
  samples.forEach((s, i) => {
    const traj = trajs[s.traj];
    const turns = s.turn >= 0 ? [traj?.turns[s.turn]] : (traj?.turns ?? []);
    const qs = turns
      .filter((t) => t !== undefined)
      .map((t) => thinkingQuality(t.parsed.think, t.observation, t.actions));
    const w = qualityWeight(qs.length > 0 ? qs.reduce((a, b) => a + b, 0) / qs.length : 0);
    weightSum += w;
    adv[i] = adv[i]!.map((x) => x * w);
  });
  return weightSum;
}

/**
 * Advantages and returns for every sample by the estimator `config.advantage` selects
 * (core/variants/estimators), after any KL penalty in the reward; whitening over the batch
 * (skipped when the batch's reward std is ~0, where it would turn critic noise into full-size
 * updates); optional σ(thinking-quality) weights.
 */
export function computeAdvantages(
  samples: readonly Sample[],
  scores: { oldLogp: Float32Array[]; refLogp: Float32Array[]; values: Float32Array[] },
  trajs: readonly Trajectory[],
  config: Config,
): { prepared: PreparedSample[]; stats: PrepareStats } {
  const n = samples.length;
  const kl = samples.map((s, i) =>
    klTokens(scores.oldLogp[i]!, scores.refLogp[i]!, s.lossMask, config.klEstimator),
  );
  const klIn = config.klMode === 'reward' && config.klCoef > 0 ? config.klCoef : 0;
  const { rewards, penalised } = klPenalisedRewards(samples, kl, klIn);

  const est = estimatorOf(config).advantages({
    samples,
    values: scores.values,
    rewards,
    penalised,
    gamma: config.gamma,
    lambda: config.lambda,
    normByStd: config.normAdvByStd,
  });
  const adv = est.advantages;
  const ret = est.returns;

  const rewardStd = meanStd(
    samples.map((s) => s.reward),
    0,
  ).std;
  const critic = estimatorOf(config).critic;
  const whitened = critic && config.whiten && rewardStd > ZERO_STD;
  if (whitened) whitenBatch(adv, samples);
  const weightSum = config.thinkingCritic ? weightByThinking(adv, samples, trajs) : 0;

  const klMasked = concatMasked(samples, (i) => kl[i]!);
  const retAll = concatMasked(samples, (i) => ret[i]!);
  const resid = concatMasked(samples, (i) => ret[i]!.map((r, t) => r - (scores.values[i]![t] as number)));
  const varRet = meanStd(retAll, 0).std ** 2;
  const explainedVar = critic && varRet > ZERO_STD ? 1 - meanStd(resid, 0).std ** 2 / varRet : 0;

  const prepared = samples.map((s, i) => ({
    ...s,
    oldLogp: scores.oldLogp[i]!,
    refLogp: scores.refLogp[i]!,
    oldValues: scores.values[i]!,
    advantages: adv[i]!,
    returns: ret[i]!,
  }));
  return {
    prepared,
    stats: {
      klRef: klMasked.length > 0 ? sum(klMasked) / klMasked.length : 0,
      explainedVar,
      qualityWeight: config.thinkingCritic && n > 0 ? weightSum / n : 1,
    },
  };
}
