// Log-probabilities and entropies of given token sequences (teacher forcing), for PPO's ratios,
// KL to the reference, entropy bonuses and the MI metrics; values from the critic.
// Two forms: differentiable tensor functions for use inside tf.variableGrads / optimizer.minimize,
// and an async bucketed scorer returning plain arrays. Sequences are right-padded to one of a
// few fixed lengths (SCORE_BUCKETS) so backends reuse their buffers (freed WebGPU buffers are
// pooled by size).
// B = rows, T = padded length, D = width, V = vocabulary.
import * as tf from '@tensorflow/tfjs';
import { fusedKernelsActive, fusedTokenLogProbs } from './kernels/index.js';
import type { Model } from './params.js';
import { selectRows, spreadRows } from './rows.js';
import { forward, lmLogits, valueHead } from './transformer.js';

/**
 * Padded lengths used for scoring; the last bucket is the model's context. Steps of 1/4 to 1/2
 * between buckets: attention cost grows with T², so padding 260 tokens to 512 would cost ~4×,
 * while a dozen shapes still let WebGPU reuse its pooled buffers.
 */
export const SCORE_BUCKETS: readonly number[] = [
  32, 64, 96, 128, 160, 192, 256, 320, 384, 448, 512, 640, 768, 1024, 1536, 2048,
];

/** The smallest bucket holding `n` tokens, capped at (and at most) `context`. */
export function bucketLength(n: number, context: number): number {
  if (n > context) throw new Error(`bucketLength: ${n} tokens exceed the context ${context}`);
  return Math.min(SCORE_BUCKETS.find((b) => b >= n) ?? context, context);
}

/** Rows right-padded with `padId` to length T, as a flat Int32Array [B*T]. */
export function padRows(rows: readonly (readonly number[])[], T: number, padId: number): Int32Array {
  const out = new Int32Array(rows.length * T).fill(padId);
  rows.forEach((row, b) => {
    if (row.length > T) throw new Error(`padRows: row ${b} has ${row.length} tokens, more than ${T}`);
    out.set(row, b * T);
  });
  return out;
}

/** Flat positions b·(T−1) + t where `mask` [B·(T−1)] is non-zero: the rows a loss reads. */
export function maskedRows(mask: Float32Array): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) out.push(i);
  return Int32Array.from(out);
}

export type PolicyLogProbs = {
  /** [B, T−1]: logp[b, t] = log p(tokens[b, t+1] | tokens[b, ≤t]). */
  logp: tf.Tensor2D;
  /** [B, T−1]: entropy of the next-token distribution at position t. */
  entropy: tf.Tensor2D;
};

/**
 * Differentiable log-probs and entropies of `tokens` [B, T] int32 under the policy, logits
 * divided by `temperature`. Returns new tensors: run it inside tf.tidy / a gradient function,
 * or dispose both. Masking is the caller's: position t of the result pairs with mask[t+1].
 * `embed: 'gather'` gives the same numbers without gradients to the embedding (WASM has no
 * gather gradient): use it only outside gradient computations.
 */
export function policyLogProbs(
  model: Model,
  tokens: tf.Tensor2D,
  temperature = 1,
  embed: 'train' | 'gather' = 'train',
  rows?: Int32Array,
): PolicyLogProbs {
  return tf.tidy(() => {
    const [B, T] = tokens.shape;
    const { hidden } = forward(model, { tokens, embed, noCache: true });
    if (rows) return rowLogProbs(model, tokens, hidden, temperature, rows);
    // Only positions 0..T−2 predict a token: [B, T−1, D] -> [B, T−1, V]
    let logits: tf.Tensor = lmLogits(model, hidden.slice([0, 0, 0], [B, T - 1, -1]));
    if (temperature !== 1) logits = logits.div(temperature);
    return tokenLogProbs(logits as tf.Tensor3D, tokens.slice([0, 1], [B, T - 1]) as tf.Tensor2D);
  });
}

/** Log-probs and entropies of `targets` [R, M] under `logits` [R, M, V]: each [R, M]. */
function tokenLogProbs(logits: tf.Tensor3D, targets: tf.Tensor2D): PolicyLogProbs {
  // webgpu: one fused kernel each way instead of ~14 + ~20 (kernels/tokenLogProbs.ts).
  if (fusedKernelsActive()) return fusedTokenLogProbs(logits, targets);
  const logProbs = tf.logSoftmax(logits); // [R, M, V]
  const V = logProbs.shape[2] as number;
  const logp = logProbs.mul(tf.oneHot(targets, V)).sum(-1) as tf.Tensor2D; // [R, M]
  const entropy = logProbs.exp().mul(logProbs).sum(-1).neg() as tf.Tensor2D;
  return { logp, entropy };
}

/**
 * policyLogProbs at the flat positions `rows` of [B, T−1] only, zero elsewhere: the LM head and
 * its softmax run on those rows alone (the loss's masked tokens, ~15% of a WebShop-lite window),
 * as the SFT loss does. At the rows the values are the full computation's.
 */
function rowLogProbs(
  model: Model,
  tokens: tf.Tensor2D,
  hidden: tf.Tensor3D,
  temperature: number,
  rows: Int32Array,
): PolicyLogProbs {
  const [B, T, D] = hidden.shape;
  const N = B * (T - 1);
  if (rows.length === 0) return { logp: tf.zeros([B, T - 1]), entropy: tf.zeros([B, T - 1]) };
  // Position t of row b is hidden row b·T + t and predicts token b·T + t + 1.
  const at = new Int32Array(rows.length);
  rows.forEach((r, i) => {
    at[i] = Math.floor(r / (T - 1)) * T + (r % (T - 1));
  });
  const atT = tf.tensor1d(at, 'int32');
  const picked = selectRows(hidden.reshape([B * T, D]) as tf.Tensor2D, atT); // [M, D]
  let logits: tf.Tensor = lmLogits(model, picked.reshape([1, -1, D]) as tf.Tensor3D); // [1, M, V]
  if (temperature !== 1) logits = logits.div(temperature);
  const next = tf.tensor1d(
    at.map((i) => i + 1),
    'int32',
  );
  const targets = tf.gather(tokens.reshape([B * T]), next).reshape([1, -1]) as tf.Tensor2D;
  const { logp, entropy } = tokenLogProbs(logits as tf.Tensor3D, targets);
  const idx = tf.tensor1d(rows, 'int32');
  const spread = (x: tf.Tensor2D) => spreadRows(x.reshape([-1]), idx, N).reshape([B, T - 1]) as tf.Tensor2D;
  return { logp: spread(logp), entropy: spread(entropy) };
}

/** Differentiable critic values of `tokens` [B, T] int32 -> [B, T]; the caller disposes. */
export function criticValues(critic: Model, tokens: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => valueHead(critic, forward(critic, { tokens, embed: 'train', noCache: true }).hidden));
}

export interface ScoreOptions {
  /** Per-row masks over tokens (length = the row's length); mask[t] = 1 counts token t. */
  masks?: readonly ArrayLike<number>[];
  /** Rows per forward pass (default 32). */
  batchSize?: number;
  /** Logits divided by this (default 1). */
  temperature?: number;
  /** Id used for padding (default 0, `<pad>`). */
  padId?: number;
}

export interface ScoredRows {
  /** Per row, length n−1: log p(token t+1 | tokens ≤ t). */
  logps: Float32Array[];
  /** Per row, length n−1: next-token entropy at t. */
  entropies: Float32Array[];
  /** Per row, Σ mask[t+1]·logp[t] (all targets when no mask). */
  maskedLogpSum: number[];
  /** Per row, mean entropy over masked targets (0 when none). */
  maskedEntropyMean: number[];
}

/** Scores token sequences (each of length >= 2) under the policy without gradients. */
export async function scoreSequences(
  model: Model,
  rows: readonly (readonly number[])[],
  options: ScoreOptions = {},
): Promise<ScoredRows> {
  const batchSize = options.batchSize ?? 32;
  const out: ScoredRows = { logps: [], entropies: [], maskedLogpSum: [], maskedEntropyMean: [] };
  for (let start = 0; start < rows.length; start += batchSize) {
    const chunk = rows.slice(start, start + batchSize);
    const n = Math.max(...chunk.map((r) => r.length));
    if (Math.min(...chunk.map((r) => r.length)) < 2)
      throw new Error('scoreSequences: every row needs >= 2 tokens');
    const T = bucketLength(n, model.config.context);
    const flat = padRows(chunk, T, options.padId ?? 0);
    const both = tf.tidy(() => {
      const tokens = tf.tensor2d(flat, [chunk.length, T], 'int32');
      const { logp, entropy } = policyLogProbs(model, tokens, options.temperature ?? 1, 'gather');
      return tf.stack([logp, entropy]); // [2, B, T−1]
    });
    const data = (await both.data()) as Float32Array;
    both.dispose();
    const plane = chunk.length * (T - 1);
    chunk.forEach((row, b) => {
      const len = row.length - 1;
      const logp = data.slice(b * (T - 1), b * (T - 1) + len);
      const ent = data.slice(plane + b * (T - 1), plane + b * (T - 1) + len);
      const mask = options.masks?.[start + b];
      let sum = 0;
      let entSum = 0;
      let count = 0;
      for (let t = 0; t < len; t++) {
        if (mask && !mask[t + 1]) continue;
        sum += logp[t] as number;
        entSum += ent[t] as number;
        count++;
      }
      out.logps.push(logp);
      out.entropies.push(ent);
      out.maskedLogpSum.push(sum);
      out.maskedEntropyMean.push(count > 0 ? entSum / count : 0);
    });
  }
  return out;
}

/** Critic values of each row's tokens (per row, one value per token), without gradients. */
export async function predictValues(
  critic: Model,
  rows: readonly (readonly number[])[],
  options: { batchSize?: number; padId?: number } = {},
): Promise<Float32Array[]> {
  const batchSize = options.batchSize ?? 32;
  const out: Float32Array[] = [];
  for (let start = 0; start < rows.length; start += batchSize) {
    const chunk = rows.slice(start, start + batchSize);
    const T = bucketLength(Math.max(...chunk.map((r) => r.length)), critic.config.context);
    const flat = padRows(chunk, T, options.padId ?? 0);
    const values = tf.tidy(() => {
      const tokens = tf.tensor2d(flat, [chunk.length, T], 'int32');
      return valueHead(critic, forward(critic, { tokens, embed: 'gather', noCache: true }).hidden);
    });
    const data = (await values.data()) as Float32Array;
    values.dispose();
    chunk.forEach((row, b) => {
      out.push(data.slice(b * T, b * T + row.length));
    });
  }
  return out;
}
