// The window means of the collapse rule and the noise it measures a rise and a fall against
// (docs/echo-trap.md, "The rule"): the standard error of a window's mean success with groups as the units — a group's
// rollouts share a start state, so the between-group spread over √(groups in the window), not
// P × N independent coin flips — and, for stored rows without that spread, the binomial
// two-proportion bound. Plain arithmetic, checked by hand in detector.test.ts.

/** Binomial standard error of a success rate `p` measured over `n` rollouts: sqrt(p(1−p)/n). */
export function binomialStdError(p: number, n: number): number {
  return Math.sqrt((p * (1 - p)) / n);
}

/**
 * How far apart two success rates may lie from sampling noise alone: z standard errors of their
 * difference under the null that both come from one rate — the two-proportion test with the
 * pooled rate p̄ = (na·pa + nb·pb)/(na + nb):
 *   bound = z · sqrt(dispersion · p̄(1 − p̄) · (1/na + 1/nb)).
 * The fallback bound for stored rows without the between-group spread.
 */
export function noiseBound(
  pa: number,
  na: number,
  pb: number,
  nb: number,
  z: number,
  dispersion = 1,
): number {
  const pooled = (na * pa + nb * pb) / (na + nb);
  return z * Math.sqrt(dispersion * pooled * (1 - pooled) * (1 / na + 1 / nb));
}

/**
 * Standard error of the mean success over a window of iterations with groups as the units: each
 * iteration's P groups start from fresh start states, so the group success rates are independent
 * draws whose variance (start-state difficulty plus the rollouts' own noise) is estimated by the
 * per-iteration between-group variances `groupVars` (unbiased, over P groups):
 *   SE = sqrt(mean(groupVars) / (points · P)).
 */
export function windowStdError(groupVars: readonly number[], groups: number): number {
  if (groupVars.length === 0 || groups < 1) return Number.NaN;
  const v = groupVars.reduce((a, b) => a + b, 0) / groupVars.length;
  return Math.sqrt(v / (groupVars.length * groups));
}

/** The mean of `xs` (NaN when empty). */
export function meanOf(xs: readonly number[]): number {
  return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}

/**
 * The best mean over `window` consecutive points of `xs` among the windows that begin at `from`
 * or later and end at `end` or before (the first on ties), and where it begins; −∞ and −1 when
 * none fits.
 */
export function bestWindow(
  xs: readonly number[],
  window: number,
  from: number,
  end: number,
): { mean: number; start: number } {
  let mean = Number.NEGATIVE_INFINITY;
  let start = -1;
  for (let a = from; a + window <= end; a++) {
    const m = meanOf(xs.slice(a, a + window));
    if (m > mean) {
      mean = m;
      start = a;
    }
  }
  return { mean, start };
}

/** Standard errors `diff` spans when one standard error is `se` (0 when neither moves). */
export function zOf(diff: number, se: number): number {
  if (se > 0) return diff / se;
  return diff > 0 ? Number.POSITIVE_INFINITY : 0;
}
