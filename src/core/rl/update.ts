// One optimizer step of the policy, the critic, or DPO, on a padded minibatch. Each step
// computes gradients with tf.variableGrads, measures the global gradient norm, clips it, and
// reads back ONE small vector (loss, norm and the step's statistics) to check for NaN/Inf
// before anything is applied — a bad step is skipped and reported, never applied. Each step's
// loss function returns its loss and its parts under their metric-row keys (actor/*, critic/*),
// which come back as the step's `metrics` and go into the row as they are.
// b = rows in the minibatch, T = padded length; arrays are in target coordinates [b, T−1].
import * as tf from '@tensorflow/tfjs';
import { type Config, defaultConfig } from '../config.js';
import type { MetricKey } from '../metrics/keys.js';
import type { Adam } from '../model/adam.js';
import { flattenGradients, fusedGlobalNorm } from '../model/kernels/adam.js';
import type { Model } from '../model/params.js';
import { modelVariables } from '../model/params.js';
import { criticValues, maskedRows, policyLogProbs } from '../model/scoring.js';
import { aggregate, lossAggOf, maskedMean } from '../variants/lossAggs.js';
import { type PolicyLossSettings, policyLossOf } from '../variants/policyLosses.js';
import { ratioLevelOf } from '../variants/ratioLevels.js';
import { clippedValueLoss, klPerToken } from './losses.js';
import {
  accumulatedGrads,
  type MicroLoss,
  type Minibatch,
  microBatches,
  type Piece,
  type StepLoss,
  weighted,
} from './microBatch.js';

export type { Minibatch };

/** The config fields a policy step needs, read as they are (`policyStepSettings` copies them). */
const REQUIRED_STEP_FIELDS = [
  'clipLow',
  'clipHigh',
  'entropyCoef',
  'klEstimator',
  'gradClip',
] as const satisfies readonly (keyof Config)[];

/** The config fields a policy step reads when given, else takes its defaults (see PolicyStepSettings). */
const DEFAULTED_STEP_FIELDS = [
  'temperature',
  'lossAgg',
  'ratioLevel',
  'policyLoss',
  'clipCovRatio',
  'clipCovLow',
  'clipCovHigh',
  'klCovRatio',
  'klCovCoef',
] as const satisfies readonly (keyof Config)[];

/** Every config field a policy step reads; a new one is its name in one of the two lists above. */
const POLICY_STEP_FIELDS = [...REQUIRED_STEP_FIELDS, ...DEFAULTED_STEP_FIELDS] as const;

/**
 * What a clipped-surrogate step needs, named as in the config: clipLow/clipHigh (ε_low, ε_high),
 * entropyCoef, klEstimator, gradClip (global-norm clip, 0: none); optional, with their defaults:
 * temperature (logits are divided by it, as verl's update_policy, so the ratio is taken against
 * the distribution that was sampled; 1), lossAgg (how the surrogate, entropy and KL losses
 * average their tokens; token-mean), ratioLevel (token, or sequence as GSPO), policyLoss and the
 * entropy-mechanism losses' settings (clip, or Clip-Cov / KL-Cov: core/variants/policyLosses). Plus klLossCoef,
 * the KL-to-reference coefficient in the loss (0 when KL goes in the reward or is off), and lr,
 * the step size Adam takes (the trainer's, after its warm-up: runSchedule.ts).
 */
export type PolicyStepSettings = Pick<Config, (typeof REQUIRED_STEP_FIELDS)[number]> &
  Partial<Pick<Config, (typeof DEFAULTED_STEP_FIELDS)[number]>> & { klLossCoef: number; lr: number };

/**
 * A config's policy-step settings: its fields as they are, KL's coefficient when it goes in the
 * loss, and the step size `lr` (the config's own unless the caller's schedule says otherwise).
 */
export function policyStepSettings(config: Config, lr = config.lr): PolicyStepSettings {
  const copied = Object.fromEntries(POLICY_STEP_FIELDS.map((k) => [k, config[k]])) as Pick<
    Config,
    (typeof POLICY_STEP_FIELDS)[number]
  >;
  return { ...copied, klLossCoef: config.klMode === 'loss' ? config.klCoef : 0, lr };
}

/** Metric-row values by key (core/metrics/keys.ts). */
export type StepMetrics = Partial<Record<MetricKey, number>>;

export interface StepResult {
  ok: boolean;
  /** The total loss minimised (surrogate − entropy bonus + KL, value loss, or DPO loss). */
  loss: number;
  gradNorm: number;
  /** The step's metrics under their row keys, e.g. actor/pgLoss, actor/clipFrac, critic/vfLoss. */
  metrics: StepMetrics;
}

/** Row keys for the loss itself and the gradient norm, where the step reports them. */
interface StepKeys {
  loss?: MetricKey;
  gradNorm?: MetricKey;
}

/**
 * Sum of scalars by pairwise adds (a balanced tree). Not tf.addN: on WebGPU it binds every input
 * in one shader stage, beyond the per-stage storage-buffer limit once a model has ~8+ weights.
 */
export function sumScalars(xs: readonly tf.Tensor[]): tf.Tensor {
  if (xs.length === 0) return tf.scalar(0);
  let level = [...xs];
  while (level.length > 1) {
    const next: tf.Tensor[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(
        i + 1 < level.length
          ? tf.add(level[i] as tf.Tensor, level[i + 1] as tf.Tensor)
          : (level[i] as tf.Tensor),
      );
    }
    level = next;
  }
  return level[0] as tf.Tensor;
}

/** The global L2 norm of the gradients (before clipping). */
export function globalNorm(grads: tf.NamedTensorMap): tf.Scalar {
  return tf.tidy(
    () => tf.sqrt(sumScalars(Object.values(grads).map((g) => tf.sum(tf.square(g))))) as tf.Scalar,
  );
}

/**
 * The step of `vars` on the summed gradient of `micro`, at step size `lr`, clipped to a global
 * norm of `gradClip` (0: none) — applied only if the loss, the norm and every metric are finite.
 */
export async function applyChecked(
  optimizer: Adam,
  lr: number,
  micro: readonly MicroLoss[],
  vars: tf.Variable[],
  gradClip: number,
  names: StepKeys = {},
): Promise<StepResult> {
  const { value, grads, named } = accumulatedGrads(micro, vars);
  // webgpu: flat gradients, a one-dispatch norm and a fused Adam step (model/kernels/adam.ts).
  const flat = optimizer.fused ? flattenGradients(grads) : null;
  const norm = flat ? fusedGlobalNorm(flat) : globalNorm(grads);
  const keys = Object.keys(named) as MetricKey[];
  const packed = tf.stack([value, norm, ...keys.map((k) => named[k] as tf.Scalar)]);
  const data = await packed.data();
  packed.dispose();
  for (const v of Object.values(named)) v?.dispose();
  const loss = data[0] as number;
  const gradNorm = data[1] as number;
  const metrics: StepMetrics = {};
  keys.forEach((k, i) => {
    metrics[k] = data[i + 2] as number;
  });
  if (names.loss) metrics[names.loss] = loss;
  if (names.gradNorm) metrics[names.gradNorm] = gradNorm;
  const ok =
    Number.isFinite(loss) && Number.isFinite(gradNorm) && Object.values(metrics).every(Number.isFinite);
  if (ok) {
    const scale = gradClip > 0 && gradNorm > gradClip ? gradClip / gradNorm : 1;
    optimizer.step(grads, lr, scale, flat ?? undefined);
  }
  tf.dispose([value, norm, ...Object.values(grads)]);
  flat?.dispose();
  return { ok, loss, gradNorm, metrics };
}

/** A copy of `a` with 0 wherever `mask` is 0. */
function zeroOutside(a: Float32Array, mask: Float32Array): Float32Array {
  return a.map((x, i) => (mask[i] === 0 ? 0 : x));
}

function targets(mb: Minibatch, a: Float32Array): tf.Tensor2D {
  return tf.tensor2d(a, [mb.b, mb.T - 1]);
}

/** The config's defaults, for the loss settings a step was not given (made once, not each step). */
const DEFAULTS = defaultConfig();

/** The settings the policy loss reads, defaults filled in (core/variants/policyLosses). */
export function lossSettings(s: PolicyStepSettings): PolicyLossSettings {
  const d = DEFAULTS;
  return {
    clipLow: s.clipLow,
    clipHigh: s.clipHigh,
    ratioLevel: s.ratioLevel ?? 'token',
    clipCovRatio: s.clipCovRatio ?? d.clipCovRatio,
    clipCovLow: s.clipCovLow ?? d.clipCovLow,
    clipCovHigh: s.clipCovHigh ?? d.clipCovHigh,
    klCovRatio: s.klCovRatio ?? d.klCovRatio,
    klCovCoef: s.klCovCoef ?? d.klCovCoef,
  };
}

/**
 * The parts of a policy step's loss, each weighted as the step weights it: the task (the policy
 * loss: the surrogate, or its Clip-Cov / KL-Cov form), the KL to the reference in the loss, and
 * the entropy bonus (RAGEN-2's split: actor/grad_norm/{task,kl,entropy}). `loss` is a part alone
 * when `part` names one (gradSplit.ts), else the sum the step minimises.
 */
export type LossPart = 'task' | 'kl' | 'entropy';

/**
 * The policy loss of one piece of a policy step (entropy bonus, optional KL loss), its terms
 * weighted inside: the surrogate by the piece's share of rows when it is a mean over rows
 * (seq-mean-*, or GSPO's sequence ratio), else of tokens; entropy and KL as the aggregation says.
 */
export function policyLoss(policy: Model, p: Piece, s: PolicyStepSettings, part?: LossPart): MicroLoss {
  const mb = p.piece;
  const tokens = tf.tensor2d(mb.tokens, [mb.b, mb.T], 'int32');
  const mask = targets(mb, mb.mask);
  const adv = targets(mb, mb.advantages);
  // The LM head runs on the masked tokens only (scoring.ts rowLogProbs): the loss reads no other,
  // and its log-probs are 0 elsewhere. Old and reference log-probs are zeroed there too, so an
  // unmasked position's ratio is exp(0) and never exp(−old) overflowing to Inf (Inf × 0 = NaN).
  const rows = maskedRows(mb.mask);
  const old = targets(mb, zeroOutside(mb.oldLogp, mb.mask));
  const ref = targets(mb, zeroOutside(mb.refLogp, mb.mask));
  const selected = mb.covSelected ? targets(mb, mb.covSelected) : null;
  const agg = s.lossAgg ?? 'token-mean';
  const aggSpec = lossAggOf(agg);
  const level = ratioLevelOf(s.ratioLevel ?? 'token');
  const lossRow = policyLossOf(s.policyLoss ?? 'clip');
  const ls = lossSettings(s);
  // Each part weighted by this piece's share of what it is a mean over: the minibatch's loss
  // tokens or its rows (the aggregation's and the ratio level's rows, core/variants).
  const pgW = p[level.lossWeightBy(aggSpec)];
  const aggW = p[aggSpec.weightBy];
  const f = (): StepLoss => {
    const { logp, entropy } = policyLogProbs(policy, tokens, s.temperature ?? 1, 'train', rows);
    const pl = lossRow.loss({ logp, oldLogp: old, advantages: adv, mask, selected }, ls, agg);
    const ent = aggregate(entropy, mask, agg);
    // The entropy shown is a token mean whatever the loss sums (Dr. GRPO's token sums).
    const entShown = aggSpec.perToken ? ent : maskedMean(entropy, mask);
    const task = weighted(pl.pgLoss, pgW);
    const bonus = tf.mul(s.entropyCoef, weighted(ent, aggW));
    const kl =
      s.klLossCoef > 0
        ? tf.mul(s.klLossCoef, weighted(aggregate(klPerToken(logp, ref, s.klEstimator), mask, agg), aggW))
        : null;
    let loss = tf.sub(task, bonus);
    if (kl) loss = tf.add(loss, kl);
    const parts: Record<LossPart, () => tf.Tensor> = {
      task: () => task,
      kl: () => kl ?? tf.mul(0, task),
      entropy: () => tf.neg(bonus),
    };
    return {
      loss: (part ? parts[part]() : loss) as tf.Scalar,
      metrics: {
        'actor/pgLoss': pl.pgLoss,
        'actor/clipFrac': pl.clipFrac,
        'actor/approxKl': pl.approxKl,
        'actor/entropy': entShown,
        ...(selected ? { 'actor/covFrac': maskedMean(selected, mask) } : {}),
      },
    };
  };
  return {
    f,
    weight: 1,
    partWeights: {
      'actor/pgLoss': pgW,
      'actor/clipFrac': p[level.clipFracBy],
      'actor/approxKl': p.tokens,
      'actor/entropy': aggSpec.perToken ? aggW : p.tokens,
      'actor/covFrac': p.tokens,
    },
    tensors: selected ? [tokens, mask, adv, old, ref, selected] : [tokens, mask, adv, old, ref],
  };
}

/**
 * One clipped-surrogate step of the policy (entropy bonus, optional KL loss); its gradient in
 * micro-batches of at most `microRows` rows (all at once by default).
 */
export async function policyStep(
  policy: Model,
  optimizer: Adam,
  mb: Minibatch,
  s: PolicyStepSettings,
  microRows = mb.b,
): Promise<StepResult> {
  const micro = microBatches(mb, microRows).map((p) => policyLoss(policy, p, s));
  try {
    return await applyChecked(optimizer, s.lr, micro, modelVariables(policy), s.gradClip, {
      gradNorm: 'actor/gradNorm',
    });
  } finally {
    tf.dispose(micro.flatMap((m) => m.tensors));
  }
}

/** The clipped value loss of one piece of a critic step. */
function valueLoss(critic: Model, mb: Minibatch, valueClip: number, weight: number): MicroLoss {
  const tokens = tf.tensor2d(mb.tokens, [mb.b, mb.T], 'int32');
  const mask = targets(mb, mb.mask);
  const ret = targets(mb, mb.returns);
  const oldV = targets(mb, mb.oldValues);
  const f = (): StepLoss => {
    const values = criticValues(critic, tokens).slice([0, 0], [mb.b, mb.T - 1]); // [b, T−1]
    return { loss: clippedValueLoss(values, oldV, ret, mask, valueClip), metrics: {} };
  };
  return { f, weight, tensors: [tokens, mask, ret, oldV] };
}

/**
 * One clipped-value-loss step of the critic (a token mean over the mask); its gradient in
 * micro-batches of at most `microRows` rows (all at once by default).
 */
export async function criticStep(
  critic: Model,
  optimizer: Adam,
  mb: Minibatch,
  s: { lr: number; valueClip: number; gradClip: number },
  microRows = mb.b,
): Promise<StepResult> {
  const micro = microBatches(mb, microRows).map((p) => valueLoss(critic, p.piece, s.valueClip, p.tokens));
  try {
    return await applyChecked(optimizer, s.lr, micro, modelVariables(critic), s.gradClip, {
      loss: 'critic/vfLoss',
    });
  } finally {
    tf.dispose(micro.flatMap((m) => m.tensors));
  }
}
