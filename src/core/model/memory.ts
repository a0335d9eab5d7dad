// How much memory a run's largest step needs, estimated before Start (issue 17: a config whose
// rollouts × context would not fit the backend is refused with the estimate and what to lower),
// and an out-of-memory error said in those words when it happens anyway. The estimate counts the
// float32 tensors alive at the peak of each phase, worst case (every row padded to the context):
//   update  — b rows × T tokens: per layer the activations kept for the backward pass
//             (~16 × b·T·D) and the attention scores, weights and their gradients (3 × b·H·T²),
//             and the logits with their softmax and gradient on the loss mask's R rows of each
//             window (3 × b·R·V; the LM head runs there only, scoring.ts rowLogProbs): R is the
//             window's response tokens, turns × max tokens per turn, or T with env tokens in the
//             loss;
//   scoring — the same forward without gradients, in chunks of SCORE_CHUNK rows (2 × b·R·V + …);
//   rollout — the KV cache of every active row (2 × L × rows × T × D) and one step's logits.
// It is an estimate, not an accounting: tfjs keeps intermediate copies of its own. The filter's
// counts, the estimator's samples and the update's pairs are read from their tables
// (rl/filterSpecs.ts, rl/estimators.ts, rl/algorithms.ts), not from their names.
import { type Config, MODEL_SIZES } from '../config.js';
import { ALGORITHMS } from '../rl/algorithms.js';
import { estimatorOf } from '../rl/estimators.js';
import { FILTER_COUNTS } from '../rl/filterSpecs.js';
import { MODEL_PRESETS } from './config.js';

/** Rows per scoring chunk (core/model/scoring.ts scores 32 rows at a time). */
export const SCORE_CHUNK = 32;

/**
 * Peak bytes each backend is trusted with. WASM: tfjs-wasm's 32-bit heap tops out at 4 GiB and
 * its allocations beyond ~2 GiB fail as "table index is out of bounds", so 1.5 GiB. WebGPU: a
 * conservative share of a discrete GPU's memory (most adapters cap one buffer at 1–2 GiB). CPU:
 * the JavaScript heap of a tab.
 */
export const BACKEND_MEMORY_BYTES: Readonly<Record<'wasm' | 'webgpu' | 'cpu', number>> = {
  wasm: 1.5 * 2 ** 30,
  webgpu: 2 * 2 ** 30,
  cpu: 2 * 2 ** 30,
};

export interface MemoryEstimate {
  bytes: number;
  /** The phase with the peak. */
  phase: 'update' | 'scoring' | 'rollout';
  /** Rows of that phase's largest batch and the tokens each is padded to. */
  rows: number;
  T: number;
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

/** The largest step of a run of `config` with a vocabulary of `vocab` tokens. */
export function estimateRunMemory(c: Config, vocab: number): MemoryEstimate {
  const { dModel: D, nLayers: L, nHeads: H } = MODEL_PRESETS[c.modelSize];
  const T = c.contextLength;
  const V = vocab;
  const filter = FILTER_COUNTS[c.filterMode];
  const rolled = Math.ceil(c.groups * c.groupSize * (filter.oversamples ? 1 / c.filterRatio : 1));
  const kept = filter.keepsShare
    ? Math.ceil(rolled * c.filterRatio)
    : Math.min(rolled, c.groups * c.groupSize);
  const samples = kept * windowsPerTrajectory(c);
  // Minibatches count whole trajectories, each with all its history windows.
  const stepRows =
    c.stepsPerIteration > 0
      ? Math.ceil(kept / c.stepsPerIteration) * windowsPerTrajectory(c)
      : updatesPairs(c)
        ? Math.min(samples, 2 * Math.max(1, Math.floor(c.minibatch / 2)) * windowsPerTrajectory(c))
        : Math.min(samples, c.minibatch * windowsPerTrajectory(c));
  const R = c.lossOnEnvTokens ? T : Math.min(T, turnsPerWindow(c) * c.maxTokensPerTurn);
  const floats = (rows: number, grad: boolean) =>
    rows * T * L * ((grad ? 16 : 6) * D + (grad ? 3 : 1) * H * T) + rows * R * (grad ? 3 : 2) * V;
  const phases: MemoryEstimate[] = [
    { phase: 'update', rows: stepRows, T, bytes: 4 * floats(stepRows, true) },
    {
      phase: 'scoring',
      rows: Math.min(SCORE_CHUNK, samples),
      T,
      bytes: 4 * floats(Math.min(SCORE_CHUNK, samples), false),
    },
    { phase: 'rollout', rows: rolled, T, bytes: 4 * rolled * (2 * L * T * D + 2 * V) },
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
  if (e.phase === 'scoring') return 'lower the context length or use a smaller model';
  return 'raise steps per iteration or lower the minibatch (fewer rows per step), or lower groups, group size or the context length';
}

/**
 * The refusal for a config whose peak does not fit `budget` bytes on `backend` ('' when it fits).
 * Both sizes are printed with enough digits to differ ("1.52 GiB … more than the 1.50 GiB").
 */
export function memoryRefusal(c: Config, vocab: number, backend: string, budget: number): string {
  const e = estimateRunMemory(c, vocab);
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
 * field the too-large phase names first (rollout: groups; scoring: context length; update: steps
 * per iteration).
 */
export function memoryField(c: Config, vocab: number, budget: number): keyof Config {
  const sizes = MODEL_SIZES.slice(0, MODEL_SIZES.indexOf(c.modelSize));
  if (sizes.some((modelSize) => estimateRunMemory({ ...c, modelSize }, vocab).bytes <= budget))
    return 'modelSize';
  const phase = estimateRunMemory(c, vocab).phase;
  return phase === 'rollout' ? 'groups' : phase === 'scoring' ? 'contextLength' : 'stepsPerIteration';
}

/** Whether an error from tfjs is the backend running out of memory (WASM heap, GPU, JS heap). */
export function isOutOfMemory(err: unknown): boolean {
  const m = err instanceof Error ? `${err.name} ${err.message}` : String(err);
  return /table index is out of bounds|memory access out of bounds|out of memory|cannot allocate|allocation failed|WebAssembly\.Memory|maximum memory size|invalid typed array length|OperationError.*memory/i.test(
    m,
  );
}
