// Scoring an iteration's samples under several models in one pass per length group (issue 22):
// the rows are sorted by length and cut into groups by a small cost model — a group pays a fixed
// cost per call (kernel launches) plus its rows × padded length, the attention part growing with
// the length — so a few long rows no longer pad every short one to their bucket, and a group is
// cut only where the padding saved is worth another call. Each group builds its token tensor once,
// runs every model on it (a policy may take only some rows: those without the sampler's
// log-probs), and reads everything back with ONE `await data()`. Per row the numbers are those of
// scoreSequences / predictValues (same forward pass, same buckets; only the batch differs).
import * as tf from '@tensorflow/tfjs';
import type { Model } from './params.js';
import { backendBudget, forwardRowBytes, rowsThatFit, SCORE_CHUNK } from './rowBytes.js';
import { bucketLength, maskedRows, padRows, policyLogProbs } from './scoring.js';
import { forward, valueHead } from './transformer.js';

/** A call's fixed cost in padded-token equivalents (a nano forward's ~150 non-attention kernels). */
export const GROUP_CALL_TOKENS = 128;
/** Length at which attention doubles a token's cost (cost ∝ T·(1 + T / ATTENTION_TOKENS)). */
export const ATTENTION_TOKENS = 256;

/** Cost of one group of `rows` rows padded to `T` (in token equivalents). */
export function groupCost(rows: number, T: number): number {
  return GROUP_CALL_TOKENS + rows * T * (1 + T / ATTENTION_TOKENS);
}

/**
 * Row indices in groups of at most `maxRows`, rows sorted by length and cut where the summed
 * groupCost is least (dynamic programming over the sorted order). Each row appears once.
 */
export function planGroups(lengths: readonly number[], maxRows: number, context: number): number[][] {
  const order = lengths
    .map((_, i) => i)
    .sort((a, b) => (lengths[a] as number) - (lengths[b] as number) || a - b);
  const n = order.length;
  const best = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const cut = new Int32Array(n + 1);
  best[0] = 0;
  for (let i = 1; i <= n; i++) {
    const T = bucketLength(lengths[order[i - 1] as number] as number, context);
    for (let j = Math.max(0, i - maxRows); j < i; j++) {
      const c = (best[j] as number) + groupCost(i - j, T);
      if (c < (best[i] as number)) {
        best[i] = c;
        cut[i] = j;
      }
    }
  }
  const groups: number[][] = [];
  for (let i = n; i > 0; i = cut[i] as number) groups.unshift(order.slice(cut[i] as number, i));
  return groups;
}

/** The masks of `rows` laid end to end, each padded to `W` (zeros after its own length). */
function paddedMasks(masks: readonly (Float32Array | undefined)[], W: number): Float32Array {
  const out = new Float32Array(masks.length * W);
  masks.forEach((m, b) => {
    if (!m) throw new Error('scoreBatch: a row has no mask');
    out.set(m, b * W);
  });
  return out;
}

export interface LogpJob {
  model: Model;
  /** Logits ÷ this (the rollout temperature). */
  temperature: number;
  /** Rows this model scores (default all); the others get null. */
  rows?: readonly boolean[];
}

export interface BatchScores {
  /** Per job, per row: log p(token t+1 | ≤ t), length n − 1; null for rows the job skipped. */
  logps: (Float32Array | null)[][];
  /** Per row, the critic's value of every token (length n); null without a critic. */
  values: Float32Array[] | null;
}

/** Per row, the positions whose log-probs are read; see scoreBatch's `options.masks`. */
type ReadMasks = readonly Float32Array[] | undefined;

/**
 * One length group's forward passes on its padded tokens `flat` ([B, T], B = group.length): each
 * job's [m, T−1] log-probs of its picked rows, then the critic's [B, T] values, as one flat
 * tensor. The caller disposes it.
 */
function groupScores(
  flat: Int32Array,
  group: readonly number[],
  T: number,
  jobs: readonly LogpJob[],
  picks: readonly number[][],
  critic: Model | null,
  masks: ReadMasks,
): tf.Tensor {
  return tf.tidy(() => {
    const tokens = tf.tensor2d(flat, [group.length, T], 'int32');
    const parts: tf.Tensor[] = [];
    jobs.forEach((job, j) => {
      const pick = picks[j] as number[];
      if (pick.length === 0) return;
      const sub = pick.length === group.length ? tokens : tf.gather(tokens, tf.tensor1d(pick, 'int32'));
      const read = masks
        ? maskedRows(
            paddedMasks(
              pick.map((k) => masks?.[group[k] as number]),
              T - 1,
            ),
          )
        : undefined;
      parts.push(
        policyLogProbs(job.model, sub as tf.Tensor2D, job.temperature, 'gather', read).logp.reshape([-1]),
      );
    });
    if (critic)
      parts.push(
        valueHead(critic, forward(critic, { tokens, embed: 'gather', noCache: true }).hidden).reshape([-1]),
      );
    return parts.length === 1 ? (parts[0] as tf.Tensor) : tf.concat(parts);
  });
}

/** Spreads one group's flat scores `data` (laid out as groupScores's) over `out`'s rows. */
function readGroup(
  data: Float32Array,
  group: readonly number[],
  T: number,
  picks: readonly number[][],
  rows: readonly (readonly number[])[],
  out: BatchScores,
): void {
  let off = 0;
  picks.forEach((pick, j) => {
    for (const k of pick) {
      const row = group[k] as number;
      (out.logps[j] as (Float32Array | null)[])[row] = data.slice(
        off,
        off + (rows[row] as number[]).length - 1,
      );
      off += T - 1;
    }
  });
  if (out.values) {
    group.forEach((row) => {
      (out.values as Float32Array[])[row] = data.slice(off, off + (rows[row] as number[]).length);
      off += T;
    });
  }
}

/**
 * Rows per group by default: SCORE_CHUNK, or fewer when a group of rows at the full `context` would not
 * fit the backend's memory (model/rowBytes.ts; the widest model's forward, its LM head on the
 * most positions a row's mask reads, or on every position without masks: worst case).
 */
function scoreRowsThatFit(
  jobs: readonly LogpJob[],
  critic: Model | null,
  context: number,
  masks: ReadMasks,
): number {
  const budget = backendBudget(tf.getBackend());
  const models = [...jobs.map((j) => j.model), ...(critic ? [critic] : [])];
  const read = masks ? Math.max(0, ...masks.map((m) => m.reduce((a, x) => a + (x ? 1 : 0), 0))) : context;
  const widest = Math.max(...models.map((m) => forwardRowBytes(m.config, context, read)));
  return Math.min(SCORE_CHUNK, rowsThatFit(widest, budget));
}

/**
 * The rows per group scoreBatch plans for these jobs and critic by default: a critic scored apart
 * (in its own worker) is given this count, so its groups are the ones a joint pass would make.
 */
export function defaultGroupRows(
  jobs: readonly LogpJob[],
  critic: Model | null,
  masks?: readonly Float32Array[],
): number {
  const context = Math.min(
    ...[...jobs.map((j) => j.model.config.context), critic?.config.context ?? Infinity],
  );
  return scoreRowsThatFit(jobs, critic, context, masks);
}

/**
 * The groups cut in two shares of about equal groupCost (the costliest first, each to the lighter
 * share, ties to the first): what this thread scores and what a second worker scores beside it.
 * Each share keeps the groups in their planned order.
 */
export function shareGroups(
  groups: readonly (readonly number[])[],
  lengths: readonly number[],
  context: number,
): [number[][], number[][]] {
  const cost = groups.map((g) =>
    groupCost(g.length, bucketLength(Math.max(...g.map((i) => lengths[i] as number)), context)),
  );
  const order = groups.map((_, k) => k).sort((a, b) => (cost[b] as number) - (cost[a] as number) || a - b);
  const load = [0, 0];
  const side = new Int8Array(groups.length);
  for (const k of order) {
    const s = (load[1] as number) < (load[0] as number) ? 1 : 0;
    side[k] = s;
    load[s] = (load[s] as number) + (cost[k] as number);
  }
  const share = (s: number) => groups.filter((_, k) => side[k] === s).map((g) => [...g]);
  return [share(0), share(1)];
}

/** Scores `rows` (each ≥ 2 tokens) under every job's policy and the critic, a group at a time. */
export async function scoreBatch(
  rows: readonly (readonly number[])[],
  jobs: readonly LogpJob[],
  critic: Model | null,
  options: {
    maxRows?: number;
    padId?: number;
    /**
     * Per row, the positions whose log-probs are read (length n − 1, non-zero = read): the LM
     * head then runs on those alone (scoring.ts rowLogProbs) and the others come back 0.
     */
    masks?: readonly Float32Array[];
    /** The length groups to score (default: planGroups's over every row); rows outside them come back null. */
    groups?: readonly (readonly number[])[];
  } = {},
): Promise<BatchScores> {
  const out: BatchScores = {
    logps: jobs.map(() => rows.map(() => null)),
    values: critic ? rows.map(() => new Float32Array(0)) : null,
  };
  const context = Math.min(
    ...[...jobs.map((j) => j.model.config.context), critic?.config.context ?? Infinity],
  );
  if (rows.length === 0) return out;
  if (Math.min(...rows.map((r) => r.length)) < 2) throw new Error('scoreBatch: every row needs >= 2 tokens');
  const groups =
    options.groups ??
    planGroups(
      rows.map((r) => r.length),
      options.maxRows ?? scoreRowsThatFit(jobs, critic, context, options.masks),
      context,
    );
  for (const group of groups) {
    const T = bucketLength(Math.max(...group.map((i) => (rows[i] as number[]).length)), context);
    const flat = padRows(
      group.map((i) => rows[i] as number[]),
      T,
      options.padId ?? 0,
    );
    const picks = jobs.map((j) => group.map((_, k) => k).filter((k) => j.rows?.[group[k] as number] ?? true));
    if (!critic && picks.every((p) => p.length === 0)) continue; // nothing of this group to score here
    const all = groupScores(flat, group, T, jobs, picks, critic, options.masks);
    const data = (await all.data()) as Float32Array;
    all.dispose();
    readGroup(data, group, T, picks, rows, out);
  }
  return out;
}
