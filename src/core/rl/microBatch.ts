// Micro-batches of a step larger than the backend's memory holds (verl's gradient accumulation):
// the minibatch cut into pieces of the rows that fit (model/rowBytes.ts), each piece's loss,
// parts and gradient computed and freed before the next, and summed with weights — each piece's
// share of the loss tokens for a token mean, of the rows with loss tokens for a mean over rows —
// so the step's loss, its metrics and its gradient are the whole minibatch's (microBatch.test.ts).
import * as tf from '@tensorflow/tfjs';
import type { MetricKey } from '../metrics/keys.js';
import type { Model } from '../model/params.js';
import { backendBudget, rowsThatFit, updateRowBytes } from '../model/rowBytes.js';

/** A minibatch as plain arrays, padded to length T (targets T−1). */
export interface Minibatch {
  b: number;
  T: number;
  tokens: Int32Array;
  /** Each of the following is [b*(T−1)]. */
  mask: Float32Array;
  advantages: Float32Array;
  oldLogp: Float32Array;
  refLogp: Float32Array;
  returns: Float32Array;
  oldValues: Float32Array;
  /** The tokens an entropy-mechanism loss acts on (core/variants/policyLosses), 1 where selected; absent for the others. */
  covSelected?: Float32Array;
}

/** What a step's loss function returns: the loss to minimise and its parts by row key. */
export interface StepLoss {
  loss: tf.Scalar;
  metrics: Partial<Record<MetricKey, tf.Scalar>>;
}

/**
 * One piece of a step's gradient (a micro-batch): its loss function, the weight its loss, parts
 * and gradient carry in the step's sums, and the tensors it made, freed after the step.
 */
export interface MicroLoss {
  f: () => StepLoss;
  weight: number;
  /** A part's own weight where it averages over something else than the loss (a token mean beside a mean over rows). */
  partWeights?: Partial<Record<MetricKey, number>>;
  tensors: tf.Tensor[];
}

/** Each count's share of their sum (equal shares when they sum to 0). */
export function shares(counts: readonly number[]): number[] {
  const total = counts.reduce((a, b) => a + b, 0);
  return counts.map((c) => (total > 0 ? c / total : 1 / counts.length));
}

/** `[start, end)` row ranges of at most `rows` rows covering `b` rows (one range when all fit). */
export function microRanges(b: number, rows: number): [number, number][] {
  const size = Math.max(1, Math.min(b, Math.floor(rows)));
  const out: [number, number][] = [];
  for (let a = 0; a < b; a += size) out.push([a, Math.min(b, a + size)]);
  return out;
}

/**
 * The weighted sum of each micro-batch's loss, parts and gradients (verl's gradient accumulation:
 * every piece's gradient is computed and freed before the next, so a step holds one piece's
 * activations). With one piece of weight 1 the step is computed exactly as without pieces.
 */
export function accumulatedGrads(
  micro: readonly MicroLoss[],
  vars: tf.Variable[],
): { value: tf.Scalar; grads: tf.NamedTensorMap; named: Partial<Record<MetricKey, tf.Scalar>> } {
  let value: tf.Scalar | null = null;
  let grads: tf.NamedTensorMap = {};
  const named: Partial<Record<MetricKey, tf.Scalar>> = {};
  const add = (prev: tf.Tensor | undefined, next: tf.Tensor, w: number) =>
    tf.tidy(() => {
      const scaled = w === 1 ? next.clone() : tf.mul(next, w);
      return prev ? tf.add(prev, scaled) : scaled;
    });
  for (const { f, weight, partWeights } of micro) {
    // tf.variableGrads returns only the loss and the gradients: the parts are kept past its
    // scope here, the one place they leave the gradient computation.
    let parts: Partial<Record<MetricKey, tf.Scalar>> = {};
    const g = tf.variableGrads(() => {
      const r = f();
      parts = Object.fromEntries(Object.entries(r.metrics).map(([k, v]) => [k, tf.keep(v as tf.Scalar)]));
      return r.loss;
    }, vars);
    if (micro.length === 1 && weight === 1) return { value: g.value, grads: g.grads, named: parts };
    const v = add(value ?? undefined, g.value, weight) as tf.Scalar;
    value?.dispose();
    value = v;
    const next: tf.NamedTensorMap = {};
    for (const [k, t] of Object.entries(g.grads)) next[k] = add(grads[k], t, weight);
    tf.dispose([g.value, ...Object.values(g.grads), ...Object.values(grads)]);
    grads = next;
    for (const [k, t] of Object.entries(parts) as [MetricKey, tf.Scalar][]) {
      const sum = add(named[k], t, partWeights?.[k] ?? weight) as tf.Scalar;
      named[k]?.dispose();
      t.dispose();
      named[k] = sum;
    }
  }
  return { value: value as tf.Scalar, grads, named };
}

/** Rows [start, end) of a minibatch. */
export function sliceMinibatch(mb: Minibatch, start: number, end: number): Minibatch {
  const W = mb.T - 1;
  const rows = (a: Float32Array) => a.slice(start * W, end * W);
  return {
    b: end - start,
    T: mb.T,
    tokens: mb.tokens.slice(start * mb.T, end * mb.T),
    mask: rows(mb.mask),
    advantages: rows(mb.advantages),
    oldLogp: rows(mb.oldLogp),
    refLogp: rows(mb.refLogp),
    returns: rows(mb.returns),
    oldValues: rows(mb.oldValues),
    ...(mb.covSelected ? { covSelected: rows(mb.covSelected) } : {}),
  };
}

/** Σ mask: the loss tokens of a piece. */
function maskTokens(mask: Float32Array): number {
  let n = 0;
  for (const m of mask) n += m;
  return n;
}

/**
 * Rows per micro-batch of a step of `model` on `mb`: as many as fit the backend's memory at the
 * minibatch's padded length, its LM head on the most loss tokens a row has (model/rowBytes.ts).
 */
export function microRowsThatFit(model: Model, T: number, mask: Float32Array): number {
  const W = T - 1;
  let R = 0;
  for (let r = 0; r * W < mask.length; r++) R = Math.max(R, maskTokens(mask.subarray(r * W, (r + 1) * W)));
  return rowsThatFit(updateRowBytes(model.config, T, R), backendBudget(tf.getBackend()));
}

/** Rows of [rows, W] `mask` with any loss token. */
function rowsWithTokens(mask: Float32Array, W: number): number {
  let n = 0;
  for (let r = 0; r * W < mask.length; r++) if (mask.subarray(r * W, (r + 1) * W).some((m) => m > 0)) n++;
  return n;
}

/** A piece of a minibatch and its shares of the whole's loss tokens and of its rows with loss tokens. */
export interface Piece {
  piece: Minibatch;
  tokens: number;
  rows: number;
}

/**
 * The minibatch in micro-batches of at most `microRows` rows, each with its share of the loss
 * tokens (the weight of a token mean) and of the rows with loss tokens (the weight of a mean over
 * rows), so that each part's weighted sum over the pieces is the whole minibatch's. A piece
 * without loss tokens adds nothing and is left out (it has no gradient to take).
 */
export function microBatches(mb: Minibatch, microRows: number): Piece[] {
  const pieces = microRanges(mb.b, microRows).map(([a, z]) => sliceMinibatch(mb, a, z));
  const tokens = shares(pieces.map((p) => maskTokens(p.mask)));
  const rows = shares(pieces.map((p) => rowsWithTokens(p.mask, mb.T - 1)));
  const all = pieces.map((piece, i) => ({ piece, tokens: tokens[i] as number, rows: rows[i] as number }));
  const some = all.filter((p) => p.tokens > 0);
  return some.length > 0 ? some : all;
}

/** `x` × `w`, and `x` itself for a weight of 1 (one piece: the step as without pieces). */
export const weighted = (x: tf.Tensor, w: number): tf.Tensor => (w === 1 ? x : tf.mul(x, w));
