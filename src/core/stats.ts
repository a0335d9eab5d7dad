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
