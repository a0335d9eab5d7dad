// Which tokens the entropy-mechanism losses act on (Cui et al. 2025, "The Entropy Mechanism of
// Reinforcement Learning for Reasoning Language Models"; verl's policy losses clip_cov and
// kl_cov). Entropy falls fastest where a token's log-probability and its advantage covary: the
// centred product cov_t = (A_t − mean A)·(log π_t − mean log π), the means over the step's loss
// tokens. KL-Cov penalises the top share of tokens by cov; Clip-Cov detaches the gradient of a
// random share of the tokens whose cov lies in (low, high) and that the ratio clip has not
// already cut. Computed here on plain arrays, once per optimizer step over the whole minibatch
// (verl takes it per micro-batch; here it does not depend on how the step is cut to fit memory),
// from the log-probs of the weights the step starts from. Returns 1 where selected, 0 elsewhere.
import type { Rng } from '../../rng.js';

/** The per-token inputs of the rule, each [b·(T−1)] (0 where `mask` is 0). */
export interface CovInputs {
  logp: Float32Array;
  oldLogp: Float32Array;
  advantages: Float32Array;
  mask: Float32Array;
}

/** Indices of the loss tokens. */
function lossTokens(mask: Float32Array): number[] {
  const out: number[] = [];
  mask.forEach((m, i) => {
    if (m > 0) out.push(i);
  });
  return out;
}

const meanAt = (a: Float32Array, idx: readonly number[]) =>
  idx.length > 0 ? idx.reduce((s, i) => s + (a[i] as number), 0) / idx.length : 0;

/** cov_t = (A_t − mean A)(log π_t − mean log π) at every loss token; −∞ elsewhere. */
export function tokenCovariances(x: Pick<CovInputs, 'logp' | 'advantages' | 'mask'>): Float64Array {
  const idx = lossTokens(x.mask);
  const a = meanAt(x.advantages, idx);
  const l = meanAt(x.logp, idx);
  const cov = new Float64Array(x.mask.length).fill(Number.NEGATIVE_INFINITY);
  for (const i of idx) cov[i] = ((x.advantages[i] as number) - a) * ((x.logp[i] as number) - l);
  return cov;
}

/** How many tokens a share selects of `n` loss tokens: ⌊n·share⌋, at least 1 (verl). */
export const selectedCount = (n: number, share: number): number => Math.max(1, Math.floor(n * share));

/** KL-Cov: the ⌊n·share⌋ (≥ 1) loss tokens of highest cov; ties go to the earlier token. */
export function klCovSelection(x: CovInputs, share: number): Float32Array {
  const idx = lossTokens(x.mask);
  const cov = tokenCovariances(x);
  const out = new Float32Array(x.mask.length);
  if (idx.length === 0) return out;
  const ranked = [...idx].sort((i, j) => (cov[j] as number) - (cov[i] as number) || i - j);
  for (const i of ranked.slice(0, selectedCount(idx.length, share))) out[i] = 1;
  return out;
}

/** The ratio clip took this token's clipped branch: −A·clip(r) > −A·r (it has no gradient already). */
function clippedByRatio(x: CovInputs, i: number, clipLow: number, clipHigh: number): boolean {
  const a = x.advantages[i] as number;
  const r = Math.exp((x.logp[i] as number) - (x.oldLogp[i] as number));
  const clipped = Math.min(Math.max(r, 1 - clipLow), 1 + clipHigh);
  return -a * clipped > -a * r;
}

/** What Clip-Cov reads besides the tokens: its share and bounds, and the ratio clip's ε. */
export interface ClipCovSettings {
  share: number;
  low: number;
  high: number;
  clipLow: number;
  clipHigh: number;
}

/**
 * Clip-Cov: of the loss tokens with low < cov < high that the ratio clip left unclipped, a random
 * ⌊n·share⌋ (≥ 1, n the loss tokens) drawn from `rng` (all of them when fewer).
 */
export function clipCovSelection(x: CovInputs, s: ClipCovSettings, rng: Rng): Float32Array {
  const idx = lossTokens(x.mask);
  const cov = tokenCovariances(x);
  const out = new Float32Array(x.mask.length);
  const candidates = idx.filter((i) => {
    const c = cov[i] as number;
    return c > s.low && c < s.high && !clippedByRatio(x, i, s.clipLow, s.clipHigh);
  });
  if (candidates.length === 0) return out;
  const take = Math.min(selectedCount(idx.length, s.share), candidates.length);
  for (const i of rng.shuffle(candidates).slice(0, take)) out[i] = 1;
  return out;
}
