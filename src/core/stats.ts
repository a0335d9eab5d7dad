// Summary statistics of plain number lists, in one place: the study's tables, the sweep tables,
// the rollout metrics and group normalisation all take their means and standard deviations
// from here. What an empty list gives is the caller's choice, said at the call (`empty`): NaN
// (the default: "no data", printed as –) or 0 (a term that adds nothing).

/** Arithmetic mean; `empty` (NaN unless given) for an empty list. */
export function mean(xs: ArrayLike<number>, empty = Number.NaN): number {
  const n = xs.length;
  if (n === 0) return empty;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += xs[i] as number;
  return sum / n;
}

/** Median (the mean of the two middle values for an even count); NaN for an empty list. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Below this, a group's reward std counts as zero (all rollouts scored the same). */
export const ZERO_STD = 1e-8;

/**
 * Mean and unbiased (n − 1) standard deviation; the std is 0 for a single value, and both are
 * `empty` (NaN unless given) for an empty list.
 */
export function meanStd(xs: ArrayLike<number>, empty = Number.NaN): { mean: number; std: number } {
  const n = xs.length;
  if (n === 0) return { mean: empty, std: empty };
  const m = mean(xs);
  if (n < 2) return { mean: m, std: 0 };
  let ss = 0;
  for (let i = 0; i < n; i++) ss += ((xs[i] as number) - m) ** 2;
  return { mean: m, std: Math.sqrt(ss / (n - 1)) };
}

/**
 * Wilson's score interval for a proportion k of n at z standard errors (1.96: 95%): the interval
 * printed beside "trapped in k of N". [0, 1] when n is 0.
 */
export function wilsonInterval(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** log(n!) by summation (n up to a few thousand; exact enough for these tests). */
function logFactorial(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

/** Hypergeometric P(X = x): x successes when drawing n of N items of which K are successes. */
function hypergeometric(x: number, n: number, K: number, N: number): number {
  const lc = (a: number, b: number) => logFactorial(a) - logFactorial(b) - logFactorial(a - b);
  return Math.exp(lc(K, x) + lc(N - K, n - x) - lc(N, n));
}

/**
 * Fisher's exact test, one-sided: the probability, with the margins fixed, that arm A shows `kA`
 * or fewer events of `nA` when arm B shows `kB` of `nB` — small when A has fewer events (traps)
 * than B beyond chance.
 */
export function fisherLess(kA: number, nA: number, kB: number, nB: number): number {
  const K = kA + kB;
  const N = nA + nB;
  let p = 0;
  for (let x = Math.max(0, K - nB); x <= kA; x++) p += hypergeometric(x, nA, K, N);
  return Math.min(1, p);
}

/** Wilcoxon's signed-rank test on paired differences, exact (by enumeration, at most 20 nonzero). */
export interface SignedRank {
  /** Nonzero differences used. */
  n: number;
  /** Sum of the ranks of the positive differences (average ranks for ties). */
  wPlus: number;
  /** P(W+ ≥ observed): small when the differences lean positive. */
  pGreater: number;
  /** P(W+ ≤ observed): small when they lean negative. */
  pLess: number;
}

export function signedRank(diffs: readonly number[]): SignedRank {
  const d = diffs.filter((x) => x !== 0);
  const n = d.length;
  if (n === 0) return { n, wPlus: 0, pGreater: 1, pLess: 1 };
  if (n > 20) throw new Error(`signedRank: exact enumeration up to 20 differences, got ${n}`);
  const order = d.map((x, i) => [Math.abs(x), i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(n);
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && order[j + 1]?.[0] === order[i]?.[0]) j++;
    for (let k = i; k <= j; k++) ranks[order[k]?.[1] as number] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const wPlus = d.reduce((a, x, i) => a + (x > 0 ? (ranks[i] as number) : 0), 0);
  let ge = 0;
  let le = 0;
  const total = 2 ** n;
  for (let mask = 0; mask < total; mask++) {
    let w = 0;
    for (let i = 0; i < n; i++) if (mask & (1 << i)) w += ranks[i] as number;
    if (w >= wPlus - 1e-9) ge++;
    if (w <= wPlus + 1e-9) le++;
  }
  return { n, wPlus, pGreater: ge / total, pLess: le / total };
}

/**
 * A percentile bootstrap interval of the mean: `draws` resamples with replacement, drawn from
 * `rng` (a seeded Rng: the same seed gives the same interval), at coverage `level`.
 */
export function bootstrapMean(
  xs: readonly number[],
  rng: { int(lo: number, hi: number): number },
  draws = 2000,
  level = 0.95,
): [number, number] {
  if (xs.length === 0) return [Number.NaN, Number.NaN];
  const means = new Float64Array(draws);
  for (let b = 0; b < draws; b++) {
    let s = 0;
    for (let i = 0; i < xs.length; i++) s += xs[rng.int(0, xs.length)] as number;
    means[b] = s / xs.length;
  }
  means.sort();
  const lo = means[Math.floor(((1 - level) / 2) * draws)] as number;
  const hi = means[Math.min(draws - 1, Math.ceil(((1 + level) / 2) * draws) - 1)] as number;
  return [lo, hi];
}

/**
 * Holm's step-down adjustment of `ps` (family-wise error): sorted ascending, the i-th smallest
 * (from 0) becomes max over j ≤ i of min(1, (m − j)·p_(j)); returned in the input's order.
 */
export function holm(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], j) => {
    running = Math.max(running, Math.min(1, (m - j) * p));
    out[i] = running;
  });
  return out;
}
