// Batched sampling of one agent turn for every active trajectory: prompts of
// different lengths are left-padded into one batch (per-row positions, padding keys masked),
// each distinct prompt is prefilled once (decodeRows.ts), then every row gets one token per step
// from a KV cache, and a row that has stopped leaves the batch (its cache rows dropped).
// Each step reads back one small [B, 3] tensor (token, its log-prob under the model at the
// sampling temperature — what scoring.ts computes for the update, so the update is on-policy as
// in verl, which divides the logits by the rollout temperature — and its log-prob under the
// distribution actually sampled, bans included) with `await data()`. Randomness: one uniform per
// row per step from the seeded Rng, turned into a token on the device by inverse-CDF
// (cumsum of the probabilities), so a seed fixes the tokens on a given backend.
// B = rows, L = padded prompt length, S = keys so far, D = width, V = vocabulary.
import * as tf from '@tensorflow/tfjs';
import { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import {
  type Batch,
  type CacheBox,
  cacheRows,
  dropCache,
  keepCache,
  keyBias,
  positions,
  prefill,
  prefillDistinct,
  subBatch,
} from './decodeRows.js';
import type { Model } from './params.js';
import { gatherRows } from './rows.js';
import { forward, inferenceHead, type KvCache, lmLogits, MASKED } from './transformer.js';

export interface SampleOptions {
  /** Most tokens generated per row (the turn's token budget). */
  maxNewTokens: number;
  /** Softmax temperature; 0 means greedy (argmax). */
  temperature: number;
  /** Source of the per-step uniforms (advanced by B draws per step). */
  rng: Rng;
  /**
   * The uniforms drawn already, step after step, B a step (turnUniforms): used instead of `rng`,
   * which is then not touched — a share of the rows sampled elsewhere (splitSample.ts).
   */
  draws?: Float32Array;
  /**
   * Left-pad every prompt to at least this length: a share of a batch sampled elsewhere pads as
   * the whole batch does (its padded length sets how many keys each softmax runs over, and on
   * wasm a softmax of another width rounds its sum differently).
   */
  padTo?: number;
  /** A row stops after emitting one of these (default `</answer>` and `<eos>`). */
  stopIds?: readonly number[];
  /** Never sampled (default `<pad> <bos> <unk> <turn> <state> <reward> <cut>`). */
  bannedIds?: readonly number[];
  /** false recomputes the whole sequence each step (for checks and benchmarks); default true. */
  useCache?: boolean;
  /** Prompts per prefill chunk (default: as many as fit the backend's memory beside the cache). */
  prefillChunk?: number;
}

/**
 * Thrown when the model's logits hold NaN or ±Inf (broken weights): sampling would otherwise pick
 * token 0 silently. The trainer turns it into an error event and restores the last good weights.
 */
export class NonFiniteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NonFiniteError';
  }
}

export interface SampledRow {
  /** Generated ids, the stop token included when one was reached. */
  ids: number[];
  /** Decoded `ids`. */
  text: string;
  /**
   * Per token: log-prob under the model at the sampling temperature (logits ÷ T; T = 1 when
   * greedy), nothing banned — what scoreSequences gives at that temperature.
   */
  logps: Float32Array;
  /** Per token: log-prob under the distribution actually sampled from (temperature, bans). */
  sampleLogps: Float32Array;
  /** True when the row ended on a stop id, false when it ran out of tokens. */
  stopped: boolean;
}

/**
 * log softmax(x)[b, idx_b] for x [B, V]: tf.logSoftmax's own ops — shifted = x − max,
 * shifted − log Σ exp(shifted) — with the last subtraction taken at the picked entry only (the
 * same float32 operation on the same operands), where a one-hot product summed [B, V] values
 * that were zero but one: the same numbers, three [B, V] kernels fewer.
 */
function chosenLogProb(x: tf.Tensor, idx: tf.Tensor1D): tf.Tensor1D {
  const [B, V] = x.shape as [number, number];
  const shifted = x.sub(x.max(1, true)) as tf.Tensor2D; // [B, V]
  const logSum = shifted.exp().sum(1).log(); // [B]
  const at = tf.range(0, B * V, V, 'int32').add(idx) as tf.Tensor1D; // flat index of each pick
  return gatherRows(shifted.reshape([B * V, 1]), at)
    .reshape([B])
    .sub(logSum) as tf.Tensor1D;
}

/** One token per row from last-position logits [B, V]: returns [B, 3] (id, logp model at T, logp sampled). */
function pick(
  logits: tf.Tensor2D,
  ban: tf.Tensor1D,
  temperature: number,
  uniforms: Float32Array,
): tf.Tensor2D {
  return tf.tidy(() => {
    const [B, V] = logits.shape;
    const tempered = temperature > 0 ? logits.div(temperature) : logits; // [B, V]
    const biased = tempered.add(ban); // [B, V]
    let idx: tf.Tensor1D;
    if (temperature > 0) {
      const cdf = tf.cumsum(tf.softmax(biased), 1); // [B, V], non-decreasing
      const target = tf.tensor2d(uniforms, [B, 1]).mul(cdf.slice([0, V - 1], [B, 1])); // [B, 1]
      // First index whose cdf reaches the target = how many entries lie below it. On wasm the
      // test cdf < target is step(target − cdf), exact in float32 (a difference of two floats is
      // positive iff the first is larger): tfjs-wasm's broadcast Less takes ~1 ms here, the
      // two kernels ~0.1.
      const below = tf.getBackend() === 'wasm' ? tf.step(tf.sub(target, cdf)) : tf.less(cdf, target);
      idx = tf.minimum(below.cast('int32').sum(1), tf.scalar(V - 1, 'int32')) as tf.Tensor1D;
    } else {
      idx = tf.argMax(biased, 1) as tf.Tensor1D;
    }
    const lpModel = chosenLogProb(tempered, idx);
    const lpSample = chosenLogProb(biased, idx);
    return tf.stack([idx.cast('float32'), lpModel, lpSample], 1) as tf.Tensor2D;
  });
}

/** The padded prompt length L; throws on an empty prompt or one that leaves no room to generate. */
function promptLength(
  model: Model,
  prompts: readonly (readonly number[])[],
  maxNewTokens: number,
  padTo = 0,
): number {
  const L = Math.max(padTo, ...prompts.map((p) => p.length));
  if (Math.min(...prompts.map((p) => p.length)) < 1) throw new Error('sampleBatch: empty prompt');
  if (L + maxNewTokens > model.config.context) {
    throw new Error(
      `sampleBatch: prompt ${L} + ${maxNewTokens} new tokens exceed the context ${model.config.context}`,
    );
  }
  return L;
}

/** The special tokens never sampled by default. */
function defaultBans(tok: Tokenizer): number[] {
  const s = tok.special;
  return [s['<pad>'], s['<bos>'], s['<unk>'], s['<turn>'], s['<state>'], s['<reward>'], s['<cut>']];
}

/**
 * The next logits [B, V] once `next` [B] is appended, S keys in all: the new tokens attend the
 * cached S−1 keys and themselves (the cache in `box` replaced), or, without a cache, the whole
 * `history` [B, S] is recomputed. `batch` holds the rows still decoding (the cache's rows).
 */
function stepLogits(
  model: Model,
  batch: Batch,
  next: Int32Array,
  history: readonly number[][],
  S: number,
  box: CacheBox | null,
): tf.Tensor2D {
  const { B } = batch;
  const V = model.config.vocabSize;
  return tf.tidy(() => {
    if (box) {
      const out = forward(model, {
        tokens: tf.tensor2d(next, [B, 1], 'int32'),
        positions: positions(batch, S - 1, 1),
        keyBias: keyBias(batch, S),
        cache: box.cache as KvCache,
        embed: 'gather',
      });
      dropCache(box.cache);
      box.cache = keepCache(out.cache);
      return lmLogits(model, out.hidden, box.head).reshape([B, V]) as tf.Tensor2D;
    }
    const out = forward(model, {
      tokens: tf.tensor2d(history.flat(), [B, S], 'int32'),
      positions: positions(batch, 0, S),
      keyBias: keyBias(batch, S),
      embed: 'gather',
    });
    return lmLogits(model, out.hidden.slice([0, S - 1, 0], [B, 1, -1])).reshape([B, V]) as tf.Tensor2D;
  });
}

/**
 * The live rows that have not stopped; when some have, the cache keeps only theirs. A row's
 * numbers do not depend on the rows beside it, so the rows left decode as they would have.
 */
function dropStopped(box: CacheBox, rows: readonly RowState[], live: number[]): number[] {
  const going = live.filter((b) => !(rows[b] as RowState).stopped);
  if (going.length === live.length || !box.cache) return live;
  const at = going.map((b) => live.indexOf(b));
  const old = box.cache;
  box.cache = cacheRows(old, at);
  dropCache(old);
  return going;
}

interface RowState {
  ids: number[];
  logps: number[];
  sampleLogps: number[];
  stopped: boolean;
}

/**
 * Appends a step's picks (`data`: [live.length, 3] as `pick` returns, row i for batch row
 * live[i]) to the rows still going; returns the tokens to feed next for every batch row
 * (`padId` for stopped rows). Throws NonFiniteError on a non-finite log-prob.
 */
function takeStep(
  rows: RowState[],
  live: readonly number[],
  data: ArrayLike<number>,
  stop: ReadonlySet<number>,
  padId: number,
  step: number,
) {
  const next = new Int32Array(rows.length).fill(padId);
  // logSoftmax of finite logits is finite: NaN or ±Inf here means the weights are broken.
  live.forEach((b, i) => {
    if (!Number.isFinite(data[i * 3 + 1] as number) || Number.isNaN(data[i * 3 + 2] as number))
      throw new NonFiniteError(`sampling: the policy's logits are not finite (row ${b}, token ${step})`);
  });
  live.forEach((b, i) => {
    const row = rows[b] as RowState;
    if (row.stopped) return;
    const id = data[i * 3] as number;
    row.ids.push(id);
    row.logps.push(data[i * 3 + 1] as number);
    row.sampleLogps.push(data[i * 3 + 2] as number);
    if (stop.has(id)) row.stopped = true;
    next[b] = id;
  });
  return next;
}

/** One step's B uniforms from `rng`, strictly positive, so a zero-probability first token is never hit. */
function drawUniforms(rng: Rng, B: number): Float32Array {
  const u = new Float32Array(B);
  for (let b = 0; b < B; b++) u[b] = Math.max(rng.float(), 1e-7);
  return u;
}

/**
 * The uniforms a turn of B rows may draw, step after step ([maxNewTokens × B]), from a copy of
 * `rng` (which stays where it is): what sampleBatch would draw from it. The turn draws B a step
 * for as many steps as its longest row took (turnSteps); the caller advances `rng` by that.
 */
export function turnUniforms(rng: Rng, B: number, maxNewTokens: number): Float32Array {
  const copy = new Rng(rng.seed);
  copy.restore(rng.state());
  const all = new Float32Array(B * maxNewTokens);
  for (let step = 0; step < maxNewTokens; step++) all.set(drawUniforms(copy, B), step * B);
  return all;
}

/** The steps a turn's decoding loop ran: one per token of its longest row (each step adds one to every row going). */
export const turnSteps = (rows: readonly SampledRow[]): number =>
  Math.max(0, ...rows.map((r) => r.ids.length));

/** Advances `rng` past a turn of B rows that ran `steps` steps, as sampleBatch would have. */
export function skipTurn(rng: Rng, B: number, steps: number): void {
  for (let step = 0; step < steps; step++) drawUniforms(rng, B);
}

/**
 * Samples one turn for each prompt (token ids, e.g. `buildSequence(...).ids`). Prompt length +
 * maxNewTokens must fit the context. Tensors are all freed before it resolves.
 */
export async function sampleBatch(
  model: Model,
  tok: Tokenizer,
  prompts: readonly (readonly number[])[],
  options: SampleOptions,
): Promise<SampledRow[]> {
  const s = tok.special;
  const B = prompts.length;
  if (B === 0) return [];
  const L = promptLength(model, prompts, options.maxNewTokens, options.padTo);
  const stop = new Set(options.stopIds ?? [s['</answer>'], s['<eos>']]);
  const banned = options.bannedIds ?? defaultBans(tok);
  const batch: Batch = { B, L, pads: prompts.map((p) => L - p.length) };
  const grid = new Int32Array(B * L).fill(s['<pad>']); // left-padded prompts, [B, L]
  prompts.forEach((p, b) => {
    grid.set(p, b * L + L - p.length);
  });
  const rows: RowState[] = prompts.map(() => ({ ids: [], logps: [], sampleLogps: [], stopped: false }));
  const history: number[][] = prompts.map((_, b) => Array.from(grid.subarray(b * L, (b + 1) * L)));
  const box: CacheBox | null =
    (options.useCache ?? true) ? { cache: null, head: inferenceHead(model) } : null;

  const banRow = new Float32Array(model.config.vocabSize);
  for (const id of banned) banRow[id] = MASKED;
  const ban = tf.tensor1d(banRow);
  // The rows in the decode batch: with a cache, a row leaves it once it has stopped (its cache
  // rows are dropped); without one every row is recomputed to the end, as before.
  let live = prompts.map((_, b) => b);
  let logits: tf.Tensor2D | null = null;
  try {
    logits = box
      ? prefillDistinct(model, batch, grid, prompts, box, options.prefillChunk)
      : prefill(model, batch, grid, box, options.prefillChunk);
    for (let step = 0; step < options.maxNewTokens; step++) {
      // One uniform per row of the batch every step, decoding or not: the stream a seed gives.
      const uniforms = options.draws
        ? options.draws.subarray(step * B, (step + 1) * B)
        : drawUniforms(options.rng, B);
      const ours = live.length === B ? uniforms : Float32Array.from(live, (b) => uniforms[b] as number);
      const picked = pick(logits as tf.Tensor2D, ban, options.temperature, ours);
      logits.dispose();
      const data = await picked.data();
      picked.dispose();
      const next = takeStep(rows, live, data, stop, s['<pad>'], step);
      next.forEach((id, b) => {
        history[b]?.push(id);
      });
      if (rows.every((r) => r.stopped) || step === options.maxNewTokens - 1) break;
      if (box) live = dropStopped(box, rows, live);
      logits = stepLogits(
        model,
        subBatch(batch, live),
        Int32Array.from(live, (b) => next[b] as number),
        history,
        L + step + 1,
        box,
      );
    }
  } finally {
    if (logits && !logits.isDisposed) logits.dispose();
    dropCache(box?.cache ?? null);
    box?.head?.dispose();
    ban.dispose();
  }
  return rows.map((r) => ({
    ids: r.ids,
    text: tok.decode(r.ids),
    logps: Float32Array.from(r.logps),
    sampleLogps: Float32Array.from(r.sampleLogps),
    stopped: r.stopped,
  }));
}
