// The experiment config: one field table (like TensorFlow Playground's state.ts) from which the
// zod schema, the setup form, the URL hash and the CLI flags are all generated. Defaults follow
// RAGEN's (arXiv 2504.20073 and RAGEN-AI/RAGEN's config/base.yaml) scaled to tiny models; the
// algorithm presets that switch several fields at once live in core/rl/algorithms.ts.
import { z } from 'zod';
import { ALGORITHM_NAMES } from './variants/algorithms.js';
import { ADVANTAGE_NAMES, ESTIMATORS } from './variants/estimators.js';
import { TOP_P_DEFAULT } from './variants/filters/topP.js';
import { FILTER_NAMES, FILTERS, usesKeepRatio } from './variants/filters.js';
import { LOSS_AGG_NAMES } from './variants/lossAggs.js';
import { POLICY_LOSS_NAMES, POLICY_LOSSES } from './variants/policyLosses.js';
import { RATIO_LEVEL_NAMES } from './variants/ratioLevels.js';

export type FieldGroup = 'run' | 'rollout' | 'reward' | 'advantage' | 'filter' | 'loss' | 'optim' | 'eval';

interface FieldBase {
  /** Config key; also the URL-hash key. */
  key: string;
  /** CLI flag without the dashes. */
  flag: string;
  group: FieldGroup;
  label: string;
  /** One line for the form and `--help`. */
  help: string;
  /** Can change mid-run without a reset. */
  live?: boolean;
}
export interface IntField extends FieldBase {
  kind: 'int';
  min: number;
  max: number;
  default: number;
}
export interface FloatField extends FieldBase {
  kind: 'float';
  min: number;
  max: number;
  default: number;
  /** Shown on a log scale (learning rates, coefficients). */
  log?: boolean;
}
export interface EnumField extends FieldBase {
  kind: 'enum';
  options: readonly string[];
  default: string;
}
export interface BoolField extends FieldBase {
  kind: 'bool';
  default: boolean;
}
export interface StringField extends FieldBase {
  kind: 'string';
  pattern: RegExp;
  patternHelp: string;
  default: string;
}
export type Field = IntField | FloatField | EnumField | BoolField | StringField;

export { ALGORITHM_NAMES };
export const MODEL_SIZES = ['nano', 'micro', 'small'] as const;
export const BACKEND_CHOICES = ['auto', 'webgpu', 'wasm', 'cpu'] as const;

const U32_MAX = 4294967295;

/** Largest config JSON file accepted (CLI --config, imported runs' configs). */
export const MAX_CONFIG_FILE_BYTES = 64 * 1024;

/** The field table, its literal types kept: the Config type below is read from it. */
// biome-ignore format: one row per field reads as a table
const FIELD_TABLE = [
  // run
  { key: 'env', flag: 'env', group: 'run', kind: 'string', label: 'Environment', default: 'minigrid/DoorKey-5x5', pattern: /^[a-z]+\/[A-Za-z0-9._-]+$/, patternHelp: 'a registered id such as minigrid/DoorKey-5x5 or webshop/lite', help: 'Which text environment the agent plays.' },
  { key: 'algorithm', flag: 'algo', group: 'run', kind: 'enum', label: 'Algorithm', options: ALGORITHM_NAMES, default: 'starpo-ppo', help: 'A preset of switches (the algorithm table lists them); each switch below can still be changed on its own.' },
  { key: 'modelSize', flag: 'size', group: 'run', kind: 'enum', label: 'Model size', options: MODEL_SIZES, default: 'nano', help: 'nano: d64×2 layers, micro: d128×4, small: d256×6 (GPU).' },
  { key: 'seed', flag: 'seed', group: 'run', kind: 'int', label: 'Seed', min: 0, max: U32_MAX, default: 1, help: 'Seeds every random choice; same seed and backend give the same run.' },
  { key: 'iterations', flag: 'iters', group: 'run', kind: 'int', label: 'Iterations', min: 1, max: 100000, default: 200, help: 'Planned rollout → update iterations.' },
  { key: 'backend', flag: 'backend', group: 'run', kind: 'enum', label: 'Backend', options: BACKEND_CHOICES, default: 'auto', help: 'auto picks WebGPU → WASM → CPU by a timed probe; the others force one.' },
  { key: 'checkpointEvery', flag: 'checkpoint-every', group: 'run', kind: 'int', label: 'Checkpoint every', min: 0, max: 100000, default: 50, help: 'Save weights, optimizer state and random streams every k iterations: a reload or a closed tab resumes the run exactly from the last one (0: only at the end, and between those a recovery checkpoint at most every 30 s).' },
  // rollout
  { key: 'groups', flag: 'groups', group: 'rollout', kind: 'int', label: 'Groups (P)', min: 1, max: 128, default: 8, help: 'Initial states per iteration; all rollouts of a group share the start seed.' },
  { key: 'groupSize', flag: 'group-size', group: 'rollout', kind: 'int', label: 'Group size (N)', min: 1, max: 64, default: 16, help: 'Rollouts per initial state.' },
  { key: 'maxTurns', flag: 'max-turns', group: 'rollout', kind: 'int', label: 'Max turns', min: 1, max: 50, default: 5, help: 'Turns per trajectory before it is cut.' },
  { key: 'maxActionsPerTurn', flag: 'max-actions-per-turn', group: 'rollout', kind: 'int', label: 'Actions per turn', min: 1, max: 10, default: 5, help: 'Actions the agent may chain with || in one answer.' },
  { key: 'maxActionsPerTraj', flag: 'max-actions', group: 'rollout', kind: 'int', label: 'Action budget', min: 1, max: 200, default: 10, help: 'Total actions per trajectory; shown to the agent as "actions left".' },
  { key: 'maxTokensPerTurn', flag: 'max-tokens', group: 'rollout', kind: 'int', label: 'Tokens per turn', min: 4, max: 256, default: 40, help: 'Longest response the agent may write in one turn.' },
  { key: 'contextLength', flag: 'context', group: 'rollout', kind: 'int', label: 'Context length', min: 64, max: 2048, default: 512, help: 'Longest token sequence the model reads; older turns are cut, visibly.' },
  { key: 'historyTurns', flag: 'history-turns', group: 'rollout', kind: 'int', label: 'History turns', min: 1, max: 50, default: 5, help: 'Past turns kept in the prompt, the current one included (turn-level GAE always keeps 1).' },
  { key: 'temperature', flag: 'temperature', group: 'rollout', kind: 'float', label: 'Temperature', min: 0.05, max: 3, default: 1, live: true, help: 'Sampling temperature for training rollouts; the update scores the policy at the same temperature (logits ÷ T, as verl).' },
  { key: 'startPool', flag: 'start-pool', group: 'rollout', kind: 'int', label: 'Start pool', min: 0, max: 100000, default: 0, help: 'Training start states cycle through a fixed pool of this many seeds, so the same goals come back (0: a fresh seed for every group, every iteration).' },
  { key: 'groupStreams', flag: 'group-streams', group: 'rollout', kind: 'enum', label: 'Group randomness', options: ['shared', 'independent'], default: 'shared', help: 'shared: every rollout of a group replays the same env random stream (RAGEN resets a group with one seed); independent: each its own.' },
  // reward
  { key: 'formatPenalty', flag: 'format-penalty', group: 'reward', kind: 'float', label: 'Format penalty', min: 0, max: 1, default: 0.1, help: 'Subtracted per turn with a malformed or invalid answer.' },
  { key: 'rewardPlacement', flag: 'reward-placement', group: 'reward', kind: 'enum', label: 'Reward placement', options: ['last-token', 'per-turn'], default: 'last-token', help: 'Sum on the last agent token (StarPO) or each turn\u2019s reward at its end.' },
  { key: 'lossOnEnvTokens', flag: 'loss-on-env-tokens', group: 'reward', kind: 'bool', label: 'Train on env tokens', default: false, help: 'Include state/reward tokens in the loss, as the paper\u2019s runs did.' },
  // advantage
  { key: 'advantage', flag: 'advantage', group: 'advantage', kind: 'enum', label: 'Advantage', options: ADVANTAGE_NAMES, default: 'gae', help: 'Critic + GAE, group-normalised (GRPO), GAE over turns, or none (DPO).' },
  { key: 'normAdvByStd', flag: 'norm-adv-by-std', group: 'advantage', kind: 'bool', label: 'Divide by group std', default: true, help: 'GRPO divides each reward\u2019s distance from its group mean by the group\u2019s std; Dr. GRPO does not (RAGEN v2: norm_adv_by_std_in_grpo).' },
  { key: 'gamma', flag: 'gamma', group: 'advantage', kind: 'float', label: 'γ', min: 0, max: 1, default: 1, help: 'Discount (RAGEN uses 1).' },
  { key: 'lambda', flag: 'lambda', group: 'advantage', kind: 'float', label: 'λ', min: 0, max: 1, default: 1, help: 'GAE trace parameter (RAGEN uses 1).' },
  { key: 'whiten', flag: 'whiten', group: 'advantage', kind: 'bool', label: 'Whiten advantages', default: true, help: 'Normalise critic advantages over the batch (skipped when reward std ≈ 0).' },
  { key: 'criticWarmup', flag: 'critic-warmup', group: 'advantage', kind: 'int', label: 'Critic warm-up', min: 0, max: 1000, default: 0, help: 'Iterations that train only the critic before the first policy update.' },
  { key: 'thinkingCritic', flag: 'thinking-critic', group: 'advantage', kind: 'bool', label: 'Thinking critic', default: false, help: 'Weight advantages by σ(rule-based thinking quality) (not in RAGEN’s paper).' },
  // filter
  { key: 'filterMode', flag: 'filter', group: 'filter', kind: 'enum', label: 'Variance filter', options: FILTER_NAMES, default: 'off', help: 'StarPO-S: keep high-std groups of the P rolled out, or roll out P/ratio and keep P; top-p: RAGEN-2\u2019s reward-variance filter (groups by variance until the top-p share of the batch\u2019s total, zero-variance groups never); dynamic: DAPO\u2019s dynamic sampling (drop groups whose rewards are all equal and roll out more, up to 3 batches, until P remain).' },
  { key: 'filterTopP', flag: 'filter-top-p', group: 'filter', kind: 'float', label: 'Top-p value', min: 0.05, max: 1, default: TOP_P_DEFAULT, live: true, help: 'The top-p filter keeps groups, highest reward variance first, until their variance reaches this share of the total (RAGEN-2 recommends 0.9; 1 keeps every group that has any variance).' },
  { key: 'filterRatio', flag: 'filter-ratio', group: 'filter', kind: 'float', label: 'Keep ratio', min: 0.05, max: 1, default: 0.25, live: true, help: 'Share of groups kept by the in-group reward-std filter.' },
  { key: 'filterOrder', flag: 'filter-order', group: 'filter', kind: 'enum', label: 'Keep', options: ['highest-std', 'lowest-std', 'random'], default: 'highest-std', help: 'Keep the most uncertain groups (paper), the least (reverse ablation), or as many at random (the control: is it the selection, or fewer updates?).' },
  { key: 'outlierDrop', flag: 'outlier-drop', group: 'filter', kind: 'bool', label: '2σ outlier drop', default: false, help: 'Drop trajectories beyond 2σ of the batch mean return (not in RAGEN’s paper).' },
  // loss
  { key: 'clipLow', flag: 'clip-low', group: 'loss', kind: 'float', label: 'ε low', min: 0, max: 1, default: 0.2, live: true, help: 'Ratio clipped below at 1 − ε_low.' },
  { key: 'clipHigh', flag: 'clip-high', group: 'loss', kind: 'float', label: 'ε high', min: 0, max: 1, default: 0.2, live: true, help: 'Ratio clipped above at 1 + ε_high (clip-higher: 0.28).' },
  { key: 'entropyCoef', flag: 'entropy-coef', group: 'loss', kind: 'float', label: 'Entropy bonus', min: 0, max: 0.1, default: 0.001, live: true, help: 'Coefficient of the entropy bonus.' },
  { key: 'klCoef', flag: 'kl-coef', group: 'loss', kind: 'float', label: 'KL coefficient', min: 0, max: 1, default: 0.001, live: true, help: 'Weight of KL to the reference policy (0: off).' },
  { key: 'klEstimator', flag: 'kl-estimator', group: 'loss', kind: 'enum', label: 'KL estimator', options: ['k1', 'k3'], default: 'k1', help: 'k1 = log r, k3 = r − 1 − log r (Schulman).' },
  { key: 'klMode', flag: 'kl-mode', group: 'loss', kind: 'enum', label: 'KL as', options: ['loss', 'reward'], default: 'reward', help: 'Subtract KL per token from the reward (RAGEN\u2019s PPO runs) or add it to the loss (its GRPO runs).' },
  { key: 'lossAgg', flag: 'loss-agg', group: 'loss', kind: 'enum', label: 'Loss aggregation', options: LOSS_AGG_NAMES, default: 'token-mean', help: 'Mean over all masked tokens of the minibatch (RAGEN\u2019s config), over each sequence and then over sequences (GRPO), or each sequence\u2019s sum and then the mean over sequences (Dr. GRPO).' },
  { key: 'ratioLevel', flag: 'ratio-level', group: 'loss', kind: 'enum', label: 'Ratio level', options: RATIO_LEVEL_NAMES, default: 'token', help: 'The importance ratio per token (PPO), or one per sequence from its mean log-ratio, clipped per sequence (GSPO).' },
  { key: 'policyLoss', flag: 'policy-loss', group: 'loss', kind: 'enum', label: 'Policy loss', options: POLICY_LOSS_NAMES, default: 'clip', help: 'clip: the clipped surrogate (PPO, GRPO); clip-cov: the same with the gradient of a few random high-covariance tokens detached; kl-cov: the unclipped surrogate with a KL penalty on the top-covariance tokens (Cui et al. 2025, verl loss_mode clip_cov / kl_cov).' },
  { key: 'clipCovRatio', flag: 'clip-cov-ratio', group: 'loss', kind: 'float', label: 'Clip-Cov share', min: 1e-6, max: 0.5, default: 0.0002, log: true, help: 'Clip-Cov: share of the step\u2019s tokens whose gradient is detached (at least 1; verl 0.0002).' },
  { key: 'clipCovLow', flag: 'clip-cov-low', group: 'loss', kind: 'float', label: 'Clip-Cov lower bound', min: -100, max: 100, default: 1, help: 'Clip-Cov: a token is a candidate when its covariance lies above this bound (verl clip_cov_lb 1).' },
  { key: 'clipCovHigh', flag: 'clip-cov-high', group: 'loss', kind: 'float', label: 'Clip-Cov upper bound', min: -100, max: 100, default: 5, help: 'Clip-Cov: … and below this one (verl clip_cov_ub 5).' },
  { key: 'klCovRatio', flag: 'kl-cov-ratio', group: 'loss', kind: 'float', label: 'KL-Cov share', min: 1e-6, max: 0.5, default: 0.002, log: true, help: 'KL-Cov: share of the step\u2019s tokens, highest covariance first, that carry the KL penalty (at least 1; the paper\u2019s 7B recipe 0.002).' },
  { key: 'klCovCoef', flag: 'kl-cov-coef', group: 'loss', kind: 'float', label: 'KL-Cov coefficient', min: 0, max: 100, default: 1, help: 'KL-Cov: weight of |log π − log π_old| on the selected tokens (verl ppo_kl_coef 1).' },
  { key: 'valueClip', flag: 'value-clip', group: 'loss', kind: 'float', label: 'Value clip', min: 0, max: 10, default: 0.5, help: 'Clipped value loss range around the old values.' },
  { key: 'dpoBeta', flag: 'dpo-beta', group: 'loss', kind: 'float', label: 'DPO β', min: 0.001, max: 10, default: 0.1, log: true, help: 'Temperature of the DPO loss.' },
  // optim
  { key: 'lr', flag: 'lr', group: 'optim', kind: 'float', label: 'Learning rate', min: 0, max: 0.1, default: 3e-4, log: true, live: true, help: 'Adam step size of the policy (0: a frozen control, the policy stays at its base).' },
  { key: 'criticLr', flag: 'critic-lr', group: 'optim', kind: 'float', label: 'Critic LR', min: 1e-7, max: 0.1, default: 1e-3, log: true, help: 'Adam step size of the critic.' },
  { key: 'adamEpsilon', flag: 'adam-epsilon', group: 'optim', kind: 'float', label: 'Adam ε', min: 1e-10, max: 1e-3, default: 1e-8, log: true, help: 'Passed explicitly: tfjs defaults differ by backend.' },
  { key: 'gradClip', flag: 'grad-clip', group: 'optim', kind: 'float', label: 'Grad-norm clip', min: 0, max: 100, default: 1, help: 'Global gradient-norm clip (0: off).' },
  { key: 'epochs', flag: 'epochs', group: 'optim', kind: 'int', label: 'Epochs', min: 1, max: 16, default: 1, help: 'Passes over the kept batch per iteration.' },
  { key: 'minibatch', flag: 'minibatch', group: 'optim', kind: 'int', label: 'Minibatch', min: 1, max: 4096, default: 32, help: 'Trajectories per optimizer step; a trajectory’s history windows stay together in one step. A step larger than the backend’s memory holds takes its gradient in micro-batches that sum to the same step.' },
  { key: 'stepsPerIteration', flag: 'steps-per-iter', group: 'optim', kind: 'int', label: 'Steps per iteration', min: 0, max: 256, default: 0, help: 'Fixed optimizer steps per iteration, for step-matched comparisons (0: from epochs × minibatches).' },
  { key: 'klEarlyStop', flag: 'kl-early-stop', group: 'optim', kind: 'float', label: 'KL early stop', min: 0, max: 10, default: 0, help: 'Stop the epoch when approx KL exceeds this (0: off).' },
  { key: 'lrWarmup', flag: 'lr-warmup', group: 'optim', kind: 'float', label: 'LR warm-up', min: 0, max: 0.5, default: 0, help: 'Share of the run’s policy updates with a linear LR ramp (critic warm-up iterations do not count).' },
  // eval
  { key: 'evalEvery', flag: 'eval-every', group: 'eval', kind: 'int', label: 'Eval every', min: 0, max: 10000, default: 5, help: 'Held-out evaluation every k iterations (0: off).' },
  { key: 'evalEpisodes', flag: 'eval-episodes', group: 'eval', kind: 'int', label: 'Eval episodes', min: 1, max: 1024, default: 32, help: 'Held-out start states per evaluation.' },
  { key: 'miEvery', flag: 'mi-every', group: 'eval', kind: 'int', label: 'MI every', min: 0, max: 10000, default: 5, help: 'Reasoning-MI proxy every k iterations (0: off).' },
  { key: 'miSamples', flag: 'mi-samples', group: 'eval', kind: 'int', label: 'MI samples', min: 2, max: 64, default: 16, help: 'Prompts teacher-forced against each other for the MI proxy.' },
] as const satisfies readonly Field[];

/** Every setting of an experiment, in form order. */
export const FIELDS: readonly Field[] = FIELD_TABLE;

/** The value type a field's kind gives it. */
type FieldValue<F> = F extends { kind: 'int' | 'float' }
  ? number
  : F extends { kind: 'bool' }
    ? boolean
    : F extends { kind: 'enum'; options: readonly (infer O)[] }
      ? O
      : string;

/**
 * The experiment config, plain JSON data (crosses postMessage, the URL, IndexedDB, the CLI): one
 * key per row of the field table, typed by the row's kind (an enum's options are its type).
 */
export type Config = { -readonly [F in (typeof FIELD_TABLE)[number] as F['key']]: FieldValue<F> };

export type ConfigKey = keyof Config;

function fieldSchema(f: Field): z.ZodType {
  switch (f.kind) {
    case 'int':
      return z
        .number({ error: `must be a whole number from ${f.min} to ${f.max}` })
        .int({ error: `must be a whole number from ${f.min} to ${f.max}` })
        .min(f.min, { error: `must be at least ${f.min} (allowed ${f.min}–${f.max})` })
        .max(f.max, { error: `must be at most ${f.max} (allowed ${f.min}–${f.max})` });
    case 'float':
      return z
        .number({ error: `must be a number from ${f.min} to ${f.max}` })
        .refine(Number.isFinite, { error: 'must be a finite number' })
        .refine((v) => v >= f.min, { error: `must be at least ${f.min} (allowed ${f.min}–${f.max})` })
        .refine((v) => v <= f.max, { error: `must be at most ${f.max} (allowed ${f.min}–${f.max})` });
    case 'enum':
      return z.enum(f.options as [string, ...string[]], { error: `must be one of: ${f.options.join(', ')}` });
    case 'bool':
      return z.boolean({ error: 'must be true or false' });
    case 'string':
      return z
        .string({ error: `must be ${f.patternHelp}` })
        .max(200, { error: 'must be at most 200 characters' })
        .regex(f.pattern, { error: `must be ${f.patternHelp}` });
  }
}

/** The zod schema of a full config, generated from FIELDS; unknown keys are errors. */
export const configSchema = z.strictObject(Object.fromEntries(FIELDS.map((f) => [f.key, fieldSchema(f)])));

/** The defaults of every field. */
export function defaultConfig(): Config {
  return Object.fromEntries(FIELDS.map((f) => [f.key, f.default])) as unknown as Config;
}

export const fieldByKey: ReadonlyMap<string, Field> = new Map(FIELDS.map((f) => [f.key, f]));

/** A field-named validation error. */
export interface FieldError {
  field: string;
  message: string;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: FieldError[] };

/** Cross-field rules the per-field ranges cannot express. */
function crossFieldErrors(c: Config): FieldError[] {
  const errors: FieldError[] = [];
  if (c.maxActionsPerTurn > c.maxActionsPerTraj) {
    errors.push({
      field: 'maxActionsPerTurn',
      message: `must not exceed the action budget (${c.maxActionsPerTraj})`,
    });
  }
  const needs = ESTIMATORS[c.advantage];
  if (c.groupSize < needs.minGroupSize) {
    errors.push({
      field: 'groupSize',
      message: `must be at least ${needs.minGroupSize} with advantage "${c.advantage}": ${needs.groupSizeWhy}`,
    });
  }
  if (POLICY_LOSSES[c.policyLoss].selects && c.ratioLevel !== 'token') {
    errors.push({
      field: 'policyLoss',
      message: `${c.policyLoss} selects tokens by covariance and needs ratioLevel "token" (got "${c.ratioLevel}")`,
    });
  }
  if (c.clipCovLow >= c.clipCovHigh) {
    errors.push({ field: 'clipCovLow', message: `must be below the upper bound (${c.clipCovHigh})` });
  }
  const filter = FILTERS[c.filterMode];
  if (usesKeepRatio(filter) && Math.round(c.groups * c.filterRatio) < 1) {
    errors.push({
      field: 'filterRatio',
      message: `keeps no group of ${c.groups}: raise it to at least ${(1 / c.groups).toFixed(3)}`,
    });
  }
  const rollouts = c.groups * c.groupSize * (filter.oversamples ? 1 / c.filterRatio : filter.batches);
  if (rollouts > 4096) {
    errors.push({
      field: 'groups',
      message: `${Math.round(rollouts)} rollouts per iteration (P × N${filter.oversamples ? ' ÷ keep ratio' : ''}); the limit is 4096: lower groups or group size`,
    });
  }
  return errors;
}

/**
 * Validates a whole config (all fields required, no unknown keys). Every problem is reported
 * with the field it belongs to. `knownEnvs`, when given, also checks the env id exists.
 */
export function validateConfig(raw: unknown, knownEnvs?: readonly string[]): ConfigResult {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const errors: FieldError[] = [];
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const k of issue.keys) errors.push({ field: k, message: 'is not a config field' });
      } else {
        const field = String(issue.path[0] ?? '(config)');
        // zod leaves `input` out of its issues, so "missing" is read off the raw object.
        const absent = typeof raw === 'object' && raw !== null && !(field in raw);
        const message = issue.code === 'invalid_type' && absent ? 'is missing' : issue.message;
        errors.push({ field, message });
      }
    }
    return { ok: false, errors };
  }
  const config = parsed.data as unknown as Config;
  const errors = crossFieldErrors(config);
  if (knownEnvs && !knownEnvs.includes(config.env)) {
    errors.push({ field: 'env', message: `"${config.env}" is not a registered environment` });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, config };
}

/** Fills missing fields with defaults, then validates (for partial inputs: hash, JSON files). */
export function completeConfig(partial: unknown, knownEnvs?: readonly string[]): ConfigResult {
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) {
    return { ok: false, errors: [{ field: '(config)', message: 'must be a JSON object' }] };
  }
  return validateConfig({ ...defaultConfig(), ...(partial as object) }, knownEnvs);
}

/** One line per error: `field: message`. */
export function formatErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.field}: ${e.message}`).join('\n');
}

/** `text` for an error message: quoted, and cut at 40 characters so a pasted blob stays readable. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * Parses one field's value from text (URL hash, CLI flag). Throws an Error naming the field.
 */
export function parseFieldText(field: Field, text: string): number | string | boolean {
  switch (field.kind) {
    case 'int':
    case 'float': {
      const t = text.trim();
      const v = t === '' ? Number.NaN : Number(t);
      if (!Number.isFinite(v)) throw new Error(`${field.key}: ${quoted(text)} is not a number`);
      return v;
    }
    case 'bool':
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      throw new Error(`${field.key}: ${quoted(text)} is not true or false`);
    case 'enum':
    case 'string':
      return text;
  }
}
