// How much memory a run's largest step needs, estimated before Start (issue 17: a config whose
// rollouts × context would not fit the backend is refused with the estimate and what to lower),
// and an out-of-memory error said in those words when it happens anyway. The estimate is worst
// case (every row padded to the context) and counts floats per row of each phase, fitted to the
// tfjs-wasm heap's high-water mark (`scripts/measure-memory.ts`, one phase on rows of full length):
//   update  — per layer 10·H·T² (attention scores, softmax and their gradients, in tfjs's own
//             copies) + 140·T·D (the activations kept for the backward pass), plus 20·R·V for the
//             LM head on the loss mask's R rows of each window (scoring.ts rowLogProbs; R is the
//             window's response tokens, turns × max tokens per turn, or T with env tokens in the
//             loss). Measured: nano T 256 35.7 MiB a row, T 512 109.6, micro T 256 103.2,
//             WebShop-lite's shape (vocabulary 2239, T 384) 115.0 — the estimate 39.1, 116.6,
//             111.6 and 120.4;
//   scoring — the policy, reference and critic forwards without gradients: per layer
//             4.5·H·T² + 55·T·D, plus 7·R·V. Measured: nano T 256 14.2 MiB a row, T 512 44.8,
//             micro T 256 38.2, WebShop-lite's shape 43.4 — the estimate 16.4, 50.3, 46.0, 47.8
//             (memoryPeak.test.ts checks three shapes: heap ≤ estimate ≤ 1.5 × heap);
//   rollout — the KV cache of every row (2 × L × T × D a row, doubled while a step extends it)
//             and the prompts' prefill, a forward of the rows that fit beside the cache.
// A step never has to hold more rows than fit: the update computes each minibatch's gradient in
// micro-batches of the rows that fit (rl/microBatch.ts, verl's gradient accumulation) and scoring runs
// in chunks of at most SCORE_CHUNK rows that fit; so a config is refused only when one row of a
// phase, or the rollout, does not fit. The filter's counts, the estimator's samples and the
// update's pairs are read from their tables (variants/filters.ts, variants/estimators.ts,
// rl/algorithms.ts), not from their names.
import { type Config, MODEL_SIZES } from '../config.js';
import { ALGORITHMS } from '../variants/algorithms.js';
import { estimatorOf } from '../variants/estimators.js';
import { FILTERS } from '../variants/filters.js';
import { MODEL_PRESETS } from './config.js';
import {
  BACKEND_MEMORY_BYTES,
  backendBudget,
  forwardRowBytes,
  kvCacheBytes,
  prefillRowsThatFit,
  rowsThatFit,
  SCORE_CHUNK,
  updateRowBytes,
} from './rowBytes.js';

export { BACKEND_MEMORY_BYTES, backendBudget };

export interface MemoryEstimate {
  bytes: number;
  /** The phase with the peak. */
  phase: 'update' | 'scoring' | 'rollout';
  /** Rows of that phase's largest batch and the tokens each is padded to. */
  rows: number;
  T: number;
}

/** How a run's phases are cut to fit a budget: rows per gradient computation and per scoring chunk. */
export interface MemoryPlan {
  /** Rows of the largest optimizer step (a minibatch, all its windows). */
  stepRows: number;
  /** Rows per gradient computation: the step's, or fewer when they do not all fit. */
  microRows: number;
  /** Rows per scoring chunk (at most SCORE_CHUNK). */
  scoreRows: number;
}

/**
 * Turns in one training window: `historyTurns` of them (an estimator with one sample per turn,
 * ppo-turn's turn-gae: one), at most the turns.
 */
function turnsPerWindow(c: Config): number {
  const history = estimatorOf(c).samples === 'turn' ? 1 : c.historyTurns;
  return Math.max(1, Math.min(history, c.maxTurns));
}

/** Training windows per trajectory: its turns cut into windows of turnsPerWindow. */
function windowsPerTrajectory(c: Config): number {
  return Math.ceil(c.maxTurns / turnsPerWindow(c));
}

/** Whether the algorithm's preset updates by DPO: minibatches of ⌊minibatch / 2⌋ pairs (optimize.ts dpoUpdate). */
function updatesPairs(c: Config): boolean {
  return estimatorOf(ALGORITHMS[c.algorithm].switches).objective === 'dpo';
}

/** Rolled-out and kept trajectories of an iteration, and the samples (windows) kept. */
function batchSizes(c: Config): { rolled: number; kept: number; samples: number } {
  const filter = FILTERS[c.filterMode];
  const rolled = Math.ceil(c.groups * c.groupSize * (filter.oversamples ? 1 / c.filterRatio : 1));
  const kept = filter.keepsShare
    ? Math.ceil(rolled * c.filterRatio)
    : Math.min(rolled, c.groups * c.groupSize);
  return { rolled, kept, samples: kept * windowsPerTrajectory(c) };
}

/** Rows of the largest optimizer step: minibatches count whole trajectories, each with all its windows. */
function optimizerStepRows(c: Config): number {
  const { kept, samples } = batchSizes(c);
  const w = windowsPerTrajectory(c);
  if (c.stepsPerIteration > 0) return Math.ceil(kept / c.stepsPerIteration) * w;
  if (updatesPairs(c)) return Math.min(samples, 2 * Math.max(1, Math.floor(c.minibatch / 2)) * w);
  return Math.min(samples, c.minibatch * w);
}

/** R: a training window's tokens the LM head runs on (its response tokens, or all with env tokens in the loss). */
function lossRows(c: Config): number {
  return c.lossOnEnvTokens
    ? c.contextLength
    : Math.min(c.contextLength, turnsPerWindow(c) * c.maxTokensPerTurn);
}

/** Bytes per row of a phase at the config's context. */
function rowBytes(c: Config, vocab: number, phase: 'update' | 'scoring'): number {
  const shape = { ...MODEL_PRESETS[c.modelSize], vocabSize: vocab };
  return (phase === 'update' ? updateRowBytes : forwardRowBytes)(shape, c.contextLength, lossRows(c));
}

/**
 * The rows each phase runs at under `budget` bytes: the update's micro-batches and the scoring
 * chunks as large as fit (at least 1 row, which may still not fit: the estimate then says so).
 * Without a budget, whole steps and SCORE_CHUNK rows.
 */
export function memoryPlan(c: Config, vocab: number, budget = Number.POSITIVE_INFINITY): MemoryPlan {
  const stepRows = optimizerStepRows(c);
  const rowsOf = (phase: 'update' | 'scoring') => rowsThatFit(rowBytes(c, vocab, phase), budget);
  return {
    stepRows,
    microRows: Math.min(stepRows, rowsOf('update')),
    scoreRows: Math.min(SCORE_CHUNK, rowsOf('scoring')),
  };
}

/**
 * A rollout of `rows` rows: their KV cache and the prompt's prefill, a forward over the prompts in
 * chunks of the rows that fit beside the cache (model/sampling.ts prefill).
 */
function rolloutBytes(c: Config, vocab: number, rows: number, budget?: number): number {
  const shape = { ...MODEL_PRESETS[c.modelSize], vocabSize: vocab };
  const kv = kvCacheBytes(shape, rows, c.contextLength);
  const perRow = forwardRowBytes(shape, c.contextLength, 1);
  const chunk = budget === undefined ? rows : prefillRowsThatFit(shape, rows, c.contextLength, budget);
  return kv + chunk * perRow;
}

/**
 * The largest step of a run of `config` with a vocabulary of `vocab` tokens, with its update and
 * scoring cut to fit `budget` bytes when given (memoryPlan).
 */
export function estimateRunMemory(c: Config, vocab: number, budget?: number): MemoryEstimate {
  const T = c.contextLength;
  const plan = memoryPlan(c, vocab, budget);
  const { rolled, samples } = batchSizes(c);
  const scoreRows = Math.min(plan.scoreRows, samples);
  const phases: MemoryEstimate[] = [
    { phase: 'update', rows: plan.microRows, T, bytes: plan.microRows * rowBytes(c, vocab, 'update') },
    { phase: 'scoring', rows: scoreRows, T, bytes: scoreRows * rowBytes(c, vocab, 'scoring') },
    { phase: 'rollout', rows: rolled, T, bytes: rolloutBytes(c, vocab, rolled, budget) },
  ];
  return phases.reduce((a, b) => (b.bytes > a.bytes ? b : a));
}

/** "1.2 GiB", "640 MiB". */
export function formatBytes(bytes: number): string {
  return bytes >= 2 ** 30
    ? `${(bytes / 2 ** 30).toFixed(1)} GiB`
    : `${Math.max(1, Math.round(bytes / 2 ** 20))} MiB`;
}

/** What to lower for the phase that does not fit. */
function whatToLower(e: MemoryEstimate): string {
  if (e.phase === 'rollout') return 'lower groups, group size or the context length';
  // Update and scoring are already cut to one row: only a shorter row or a smaller model helps.
  return 'lower the context length or use a smaller model';
}

/**
 * The refusal for a config whose peak does not fit `budget` bytes on `backend` ('' when it fits).
 * Both sizes are printed with enough digits to differ ("1.52 GiB … more than the 1.50 GiB").
 */
export function memoryRefusal(c: Config, vocab: number, backend: string, budget: number): string {
  const e = estimateRunMemory(c, vocab, budget);
  if (e.bytes <= budget) return '';
  let need = formatBytes(e.bytes);
  let have = formatBytes(budget);
  if (need === have) {
    need = `${(e.bytes / 2 ** 30).toFixed(2)} GiB`;
    have = `${(budget / 2 ** 30).toFixed(2)} GiB`;
  }
  return `needs about ${need} at its largest step (${e.phase}: ${e.rows} rows × ${e.T} tokens, vocabulary ${vocab}) — more than the ${have} ${backend} can hold: ${whatToLower(e)}`;
}

/**
 * The field a memory refusal belongs to: the model size when a smaller model would fit, else the
 * field the too-large phase names first (rollout: groups; one row of the update or of scoring:
 * the context length).
 */
export function memoryField(c: Config, vocab: number, budget: number): keyof Config {
  const sizes = MODEL_SIZES.slice(0, MODEL_SIZES.indexOf(c.modelSize));
  if (sizes.some((modelSize) => estimateRunMemory({ ...c, modelSize }, vocab, budget).bytes <= budget))
    return 'modelSize';
  return estimateRunMemory(c, vocab, budget).phase === 'rollout' ? 'groups' : 'contextLength';
}

/** Whether an error from tfjs is the backend running out of memory (WASM heap, GPU, JS heap). */
export function isOutOfMemory(err: unknown): boolean {
  const m = err instanceof Error ? `${err.name} ${err.message}` : String(err);
  return /table index is out of bounds|memory access out of bounds|out of memory|cannot allocate|allocation failed|WebAssembly\.Memory|maximum memory size|invalid typed array length|OperationError.*memory/i.test(
    m,
  );
}

/**
 * A failed iteration in words: an out-of-memory says so, with the estimate of the run's largest
 * step and what to lower (tfjs-wasm words it "table index is out of bounds").
 */
export function runErrorText(err: unknown, config: Config, backend: string, vocab?: number): string {
  const message = err instanceof Error ? err.message : String(err);
  if (!isOutOfMemory(err)) return message;
  const e = estimateRunMemory(config, vocab ?? 512, backendBudget(backend));
  return `out of memory on ${backend} (${message}); its largest step needs about ${formatBytes(e.bytes)} (${e.phase}: ${e.rows} rows × ${e.T} tokens): lower groups, group size or the context length. Everything up to the last checkpoint is kept.`;
}
