// The rows of one decoding batch (sampling.ts): left-padded prompts as a grid with their pads,
// the key bias and positions a forward pass takes, the KV cache kept between steps, and the
// prefill — each distinct prompt once, in chunks that fit the backend's memory — whose logits
// and cache rows are copied to every row that repeats a prompt or picked for the rows still
// decoding. A row's numbers never depend on the rows beside it (every product, LayerNorm and
// softmax works row by row), so any subset or copy of rows at the same padded length L holds the
// numbers a forward of all of them would give (another L changes how many keys each softmax
// sums over, and on WASM its rounding); bench/rolloutGolden.test.ts holds that to the bit.
// B = rows, L = padded prompt length, S = keys so far, V = vocabulary.
import * as tf from '@tensorflow/tfjs';
import type { Model } from './params.js';
import { backendBudget, prefillRowsThatFit } from './rowBytes.js';
import { gatherRows } from './rows.js';
import { forward, type KvCache, lmLogits, MASKED } from './transformer.js';

export interface Batch {
  B: number;
  L: number;
  /** Left-padding count per row. */
  pads: number[];
}

/** [B, 1, 1, S] key bias: padding keys of each row masked. Columns >= L are generated keys. */
export function keyBias(batch: Batch, S: number): tf.Tensor4D {
  const bias = new Float32Array(batch.B * S);
  batch.pads.forEach((pad, b) => {
    bias.fill(MASKED, b * S, b * S + pad);
  });
  return tf.tensor4d(bias, [batch.B, 1, 1, S]);
}

/** [B, T] positions of columns [from, from + T): column j of row b is at j − pad_b (>= 0). */
export function positions(batch: Batch, from: number, T: number): tf.Tensor2D {
  const pos = new Int32Array(batch.B * T);
  batch.pads.forEach((pad, b) => {
    for (let t = 0; t < T; t++) pos[b * T + t] = Math.max(0, from + t - pad);
  });
  return tf.tensor2d(pos, [batch.B, T], 'int32');
}

/**
 * The KV cache between steps (null without one), replaced as decoding goes on, and the LM head
 * laid out once for the call (transformer.ts inferenceHead).
 */
export interface CacheBox {
  cache: KvCache | null;
  head?: tf.Tensor2D | null;
}

export const keepCache = (c: KvCache): KvCache => ({
  keys: c.keys.map((k) => tf.keep(k)),
  values: c.values.map((v) => tf.keep(v)),
});

export const dropCache = (c: KvCache | null): void => {
  for (const t of [...(c?.keys ?? []), ...(c?.values ?? [])]) t.dispose();
};

/** Rows `idx` of a [N, ...] tensor, by row copies (rows.ts gatherRows): -> [idx.length, ...]. */
function pickRows<T extends tf.Tensor>(x: T, idx: readonly number[]): T {
  return tf.tidy(() => {
    const [N, ...rest] = x.shape as number[];
    const flat = x.reshape([N as number, -1]) as tf.Tensor2D;
    return gatherRows(flat, tf.tensor1d(idx as number[], 'int32')).reshape([idx.length, ...rest]) as T;
  });
}

/** The cache's rows `idx` (new tensors, kept; the caller drops the old cache). */
export const cacheRows = (c: KvCache, idx: readonly number[]): KvCache => ({
  keys: c.keys.map((k) => tf.keep(pickRows(k, idx))),
  values: c.values.map((v) => tf.keep(pickRows(v, idx))),
});

/**
 * The distinct prompts among the rows: `first` holds the first row of each, `of[b]` the
 * distinct prompt row b repeats. A group's rollouts start from one state, so turn 1 of a
 * 4 × 16 iteration holds 4 distinct prompts in 64 rows.
 */
function distinctPrompts(prompts: readonly (readonly number[])[]): { first: number[]; of: number[] } {
  const seen = new Map<string, number>();
  const first: number[] = [];
  const of = prompts.map((p, b) => {
    const key = p.join(',');
    let u = seen.get(key);
    if (u === undefined) {
      u = first.length;
      seen.set(key, u);
      first.push(b);
    }
    return u;
  });
  return { first, of };
}

/** The sub-batch of rows `rows` (their pads; same L). */
export const subBatch = (batch: Batch, rows: readonly number[]): Batch => ({
  B: rows.length,
  L: batch.L,
  pads: rows.map((b) => batch.pads[b] as number),
});

/** The grid's rows `rows`, [rows.length, L]. */
function subGrid(grid: Int32Array, L: number, rows: readonly number[]): Int32Array {
  const out = new Int32Array(rows.length * L);
  rows.forEach((b, i) => {
    out.set(grid.subarray(b * L, (b + 1) * L), i * L);
  });
  return out;
}

/** [B, L] prompt → logits of the last column [B, V]; fills `box` with the cache (null: none kept). */
function prefillRows(model: Model, batch: Batch, grid: Int32Array, box: CacheBox | null): tf.Tensor2D {
  const { B, L } = batch;
  return tf.tidy(() => {
    const out = forward(model, {
      tokens: tf.tensor2d(grid, [B, L], 'int32'),
      positions: positions(batch, 0, L),
      keyBias: keyBias(batch, L),
      embed: 'gather',
    });
    if (box) box.cache = keepCache(out.cache);
    return lmLogits(model, out.hidden.slice([0, L - 1, 0], [B, 1, -1]), box?.head).reshape([
      B,
      model.config.vocabSize,
    ]) as tf.Tensor2D;
  });
}

/**
 * The prefill of each distinct prompt once (distinctPrompts), its logits and cache then copied
 * to every row that repeats it: each row's numbers are its own forward's (a row's forward does
 * not depend on the rows beside it), so the rows are the ones a prefill of all B would give.
 */
export function prefillDistinct(
  model: Model,
  batch: Batch,
  grid: Int32Array,
  prompts: readonly (readonly number[])[],
  box: CacheBox | null,
  chunkRows?: number,
): tf.Tensor2D {
  const { first, of } = distinctPrompts(prompts);
  if (first.length === batch.B) return prefill(model, batch, grid, box, chunkRows);
  const part: CacheBox | null = box ? { cache: null, head: box.head } : null;
  const logits = prefill(model, subBatch(batch, first), subGrid(grid, batch.L, first), part, chunkRows);
  try {
    if (box && part?.cache) box.cache = cacheRows(part.cache, of);
    return pickRows(logits, of);
  } finally {
    logits.dispose();
    dropCache(part?.cache ?? null);
  }
}

/**
 * The prefill of every prompt, in chunks of the rows whose forward fits the backend's memory
 * beside the whole batch's cache (rowBytes.ts prefillRowsThatFit; one chunk when all fit): each
 * row's numbers are its own forward's, so the chunks' logits and caches are stacked by row.
 */
export function prefill(
  model: Model,
  batch: Batch,
  grid: Int32Array,
  box: CacheBox | null,
  chunkRows?: number,
): tf.Tensor2D {
  const { B, L } = batch;
  const chunk = chunkRows ?? prefillRowsThatFit(model.config, B, L, backendBudget(tf.getBackend()));
  if (chunk >= B) return prefillRows(model, batch, grid, box);
  const logits: tf.Tensor2D[] = [];
  const caches: KvCache[] = [];
  try {
    for (let a = 0; a < B; a += chunk) {
      const z = Math.min(B, a + chunk);
      const part = box ? { cache: null as KvCache | null, head: box.head } : null;
      logits.push(
        prefillRows(model, { B: z - a, L, pads: batch.pads.slice(a, z) }, grid.subarray(a * L, z * L), part),
      );
      if (part?.cache) caches.push(part.cache);
    }
    if (box && caches.length > 0) {
      const first = caches[0] as KvCache;
      box.cache = {
        keys: first.keys.map((_, l) => tf.concat(caches.map((c) => c.keys[l] as tf.Tensor4D))),
        values: first.values.map((_, l) => tf.concat(caches.map((c) => c.values[l] as tf.Tensor4D))),
      };
    }
    return tf.concat(logits) as tf.Tensor2D;
  } finally {
    tf.dispose(logits);
    for (const c of caches) dropCache(c);
  }
}
