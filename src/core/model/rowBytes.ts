// Bytes per row of the model's passes, fitted to the tfjs-wasm heap's high-water mark (see
// memory.ts for the fit and its measurements), and the budget each backend is trusted with: what
// the update's micro-batches, the scoring chunks and the rollout's prefill chunks are cut by.
// No imports but a type, so the model's own passes can read it.
import type { ModelConfig } from './config.js';

/** Rows per scoring group at most (scoreBatch.ts), fewer when they do not fit. */
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

/** The budget of the tfjs backend named `name` (tf.getBackend()); the CPU's for any other. */
export function backendBudget(name: string): number {
  return BACKEND_MEMORY_BYTES[name as keyof typeof BACKEND_MEMORY_BYTES] ?? BACKEND_MEMORY_BYTES.cpu;
}

/** The shape of a model as the estimate reads it. */
export type ModelShape = Pick<ModelConfig, 'dModel' | 'nLayers' | 'nHeads' | 'vocabSize'>;

/** Bytes per row of T tokens in a gradient step with the LM head on R of them (the header's fit). */
export function updateRowBytes(m: ModelShape, T: number, R: number): number {
  return 4 * (m.nLayers * (10 * m.nHeads * T * T + 140 * T * m.dModel) + 20 * R * m.vocabSize);
}

/** Bytes per row of T tokens in a forward without gradients, the LM head on R of them. */
export function forwardRowBytes(m: ModelShape, T: number, R: number): number {
  return 4 * (m.nLayers * (4.5 * m.nHeads * T * T + 55 * T * m.dModel) + 7 * R * m.vocabSize);
}

/**
 * Bytes of a KV cache of `rows` rows of T tokens, doubled: each decoding step makes the longer
 * cache before it frees the shorter.
 */
export function kvCacheBytes(m: ModelShape, rows: number, T: number): number {
  return 2 * 4 * rows * 2 * m.nLayers * T * m.dModel;
}

/** The most rows of `rowBytes` each that fit `budget` bytes, at least 1. */
export function rowsThatFit(rowBytes: number, budget: number): number {
  return Math.max(1, Math.floor(budget / rowBytes));
}

/** Rows per prefill chunk (model/sampling.ts): as many prompts of T tokens as fit beside the cache of all `rows`. */
export function prefillRowsThatFit(m: ModelShape, rows: number, T: number, budget: number): number {
  return Math.min(rows, rowsThatFit(forwardRowBytes(m, T, 1), budget - kvCacheBytes(m, rows, T)));
}
