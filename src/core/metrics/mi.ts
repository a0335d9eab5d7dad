// RAGEN-2's mutual-information proxy of template collapse (RAGEN-2's collapse_metrics in the
// RAGEN-AI/RAGEN repository): teacher-force every sampled reasoning z_i under every prompt x_j of a
// sample, L[i][j] = log p(z_i | x_j); MI = mean_i(L[i][i] − (logsumexp_j L[i][j] − log N)),
// at most log N; retrieval accuracy = share of i whose own prompt scores highest (chance 1/N).
// Reasoning-agnostic thinking scores the same under every prompt, so MI → 0.
// Prompts are distinct (`miPairs`): a prompt repeated in the matrix can never be retrieved
// uniquely and caps MI below log N, so N is the number of distinct first-turn prompts.
import type { Model } from '../model/params.js';
import { scoreSequences } from '../model/scoring.js';
import type { Trajectory } from '../trajectory.js';
import { thinkTokenCount } from './rolloutMetrics.js';

export interface ReasoningPair {
  /** The prompt the thinking was sampled under (ends with the forced `<think>`). */
  promptIds: readonly number[];
  /** The thinking tokens (between `<think>` and `</think>`, tags excluded). */
  thinkIds: readonly number[];
}

export interface MiResult {
  mi: number;
  retrievalAcc: number;
  n: number;
  /** The in-batch matrix L[i][j] = log p(z_i | x_j) (reasoning samples × prompts), N × N. */
  matrix: number[][];
  /** The pairs behind the rows and columns, in order (those with a non-empty thinking). */
  pairs: ReasoningPair[];
}

/**
 * (prompt, thinking) pairs for the proxy: the first turn of the first trajectory of each
 * distinct first-turn prompt (token for token), at most `n`, in trajectory order. Rollouts of
 * one group share a prompt, and two groups can too (Bandit has two prompts), so the proxy may
 * get fewer than `n` pairs; the caller reports how many.
 */
export function miPairs(trajs: readonly Trajectory[], n: number, thinkCloseId: number): ReasoningPair[] {
  const seen = new Set<string>();
  const pairs: ReasoningPair[] = [];
  for (const t of trajs) {
    const first = t.turns[0];
    if (!first || pairs.length >= n) continue;
    const key = first.promptIds.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push({
      promptIds: first.promptIds,
      thinkIds: first.responseIds.slice(0, thinkTokenCount(first.responseIds, thinkCloseId)),
    });
  }
  return pairs;
}

function logSumExp(xs: readonly number[]): number {
  const m = Math.max(...xs);
  return m + Math.log(xs.reduce((s, x) => s + Math.exp(x - m), 0));
}

/** Computes the proxy from a matrix L[i][j] = log p(z_i | x_j). */
export function miFromMatrix(L: readonly (readonly number[])[]): { mi: number; retrievalAcc: number } {
  const N = L.length;
  if (N < 2) return { mi: 0, retrievalAcc: 0 };
  let mi = 0;
  let hits = 0;
  L.forEach((row, i) => {
    mi += (row[i] as number) - (logSumExp(row) - Math.log(N));
    const best = row.reduce((b, v, j) => (v > (row[b] as number) ? j : b), 0);
    if (best === i) hits++;
  });
  return { mi: mi / N, retrievalAcc: hits / N };
}

/**
 * Scores N² sequences (each prompt followed by each thinking) and returns the proxy, with the
 * logits divided by `temperature` (the rollout's, so the proxy scores the sampled distribution).
 */
export async function reasoningMi(
  policy: Model,
  pairs: readonly ReasoningPair[],
  options: { padId?: number; temperature?: number } = {},
): Promise<MiResult> {
  const usable = pairs.filter((p) => p.thinkIds.length > 0);
  const N = usable.length;
  if (N < 2) return { mi: 0, retrievalAcc: 0, n: N, matrix: [], pairs: usable };
  const rows: number[][] = [];
  const masks: Uint8Array[] = [];
  for (const zi of usable) {
    for (const xj of usable) {
      const ids = [...xj.promptIds, ...zi.thinkIds].slice(0, policy.config.context);
      const mask = new Uint8Array(ids.length);
      mask.fill(1, Math.min(xj.promptIds.length, ids.length));
      rows.push(ids);
      masks.push(mask);
    }
  }
  const scored = await scoreSequences(policy, rows, {
    masks,
    padId: options.padId ?? 0,
    temperature: options.temperature ?? 1,
  });
  const L = usable.map((_, i) => usable.map((_, j) => scored.maskedLogpSum[i * N + j] as number));
  const { mi, retrievalAcc } = miFromMatrix(L);
  return { mi, retrievalAcc, n: N, matrix: L, pairs: usable };
}
