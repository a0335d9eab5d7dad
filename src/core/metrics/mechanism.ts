// RAGEN's mechanism of the echo trap, read off one run: the iteration at which each precursor
// first showed — the in-group reward std fell, the share of groups with no reward spread rose,
// the policy's entropy moved, the gradient norm spiked, the reasoning MI fell — and the iteration
// success fell back to its start. Each onset is a fixed rule on the run's own series (written
// below and in ONSET_RULES), so a round can count them in trapped runs (with their lead before
// the fall) and in the nulls (their false-alarm rate).
import { mean, median } from '../stats.js';
import type { MetricKey, MetricRow } from './keys.js';

export type Onset = 'rewardStdFell' | 'zeroStdRose' | 'entropyMoved' | 'gradNormSpike' | 'miFell';

/** The onsets and the rule each one follows, in words (the report prints them). */
export const ONSET_RULES: Readonly<Record<Onset, string>> = {
  rewardStdFell:
    'in-group reward std: the trailing 10-iteration mean at or below half the highest trailing mean before it',
  zeroStdRose:
    'share of groups with no reward spread: the trailing 10-iteration mean 0.3 or more above the first 10 iterations’ mean',
  entropyMoved: 'entropy: the trailing 10-iteration mean 50% or more away from the first 10 iterations’ mean',
  gradNormSpike: 'gradient norm: one iteration at 5× or more the median of the 20 before it',
  miFell: 'reasoning MI: a measurement 1 nat or more below the first measurement',
};

export const ONSETS = Object.keys(ONSET_RULES) as Onset[];

/** The rolling window of the trailing means. */
const W = 10;

/** Each onset's first iteration (absent: never), and the fall's. */
export interface Mechanism {
  onsets: Partial<Record<Onset, number>>;
  /**
   * First iteration after the peak's window at which the trailing 10-iteration mean of success is
   * at or below the mean of the first 5 iterations (null: never).
   */
  fall: number | null;
}

function series(rows: readonly MetricRow[], key: MetricKey): { it: number; v: number }[] {
  return rows
    .map((r) => ({ it: r.iteration, v: r[key] }))
    .filter((p): p is { it: number; v: number } => typeof p.v === 'number' && Number.isFinite(p.v));
}

function trailing(xs: readonly { it: number; v: number }[]): { it: number; v: number }[] {
  const out = [];
  for (let i = W - 1; i < xs.length; i++)
    out.push({ it: (xs[i] as { it: number }).it, v: mean(xs.slice(i - W + 1, i + 1).map((p) => p.v)) });
  return out;
}

function firstMean(xs: readonly { v: number }[]): number {
  return xs.length >= W ? mean(xs.slice(0, W).map((p) => p.v)) : Number.NaN;
}

/** Reads a run's onsets and its fall (rows in iteration order). */
export function mechanismOf(rows: readonly MetricRow[]): Mechanism {
  const onsets: Partial<Record<Onset, number>> = {};
  const std = trailing(series(rows, 'rollout/inGroupRewardStd'));
  let best = Number.NEGATIVE_INFINITY;
  for (const p of std) {
    if (best > 0 && p.v <= best / 2) {
      onsets.rewardStdFell = p.it;
      break;
    }
    best = Math.max(best, p.v);
  }
  const zero = series(rows, 'rollout/zeroStdShare');
  const zero0 = firstMean(zero);
  const zeroHit = trailing(zero).find((p) => p.v >= zero0 + 0.3);
  if (zeroHit) onsets.zeroStdRose = zeroHit.it;
  const ent = series(rows, 'actor/entropy');
  const ent0 = firstMean(ent);
  const entHit = trailing(ent).find((p) => ent0 > 0 && Math.abs(p.v - ent0) >= 0.5 * ent0);
  if (entHit) onsets.entropyMoved = entHit.it;
  const grad = series(rows, 'actor/gradNorm');
  for (let i = 20; i < grad.length; i++) {
    const m = median(grad.slice(i - 20, i).map((p) => p.v));
    if (m > 0 && (grad[i] as { v: number }).v >= 5 * m) {
      onsets.gradNormSpike = (grad[i] as { it: number }).it;
      break;
    }
  }
  const mi = series(rows, 'reasoning/mi');
  const miHit = mi.find((p) => mi.length > 0 && p.v <= (mi[0] as { v: number }).v - 1);
  if (miHit) onsets.miFell = miHit.it;
  return { onsets, fall: fallOf(rows) };
}

function fallOf(rows: readonly MetricRow[]): number | null {
  const succ = rows
    .map((r) => ({ it: r.iteration, v: r['rollout/pairedSuccessRate'] ?? r['rollout/successRate'] }))
    .filter((p): p is { it: number; v: number } => typeof p.v === 'number' && Number.isFinite(p.v));
  if (succ.length < 5 + W) return null;
  const start = mean(succ.slice(0, 5).map((p) => p.v));
  const tr = trailing(succ);
  let peakAt = 0;
  for (let i = 1; i < tr.length; i++)
    if ((tr[i] as { v: number }).v > (tr[peakAt] as { v: number }).v) peakAt = i;
  const hit = tr.slice(peakAt + 1).find((p) => p.v <= start);
  return hit ? hit.it : null;
}
