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
