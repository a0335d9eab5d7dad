// Chart smoothing as TensorBoard does it (PR #639): an exponential moving average debiased by
// the accumulated weight, so the first points are not pulled towards zero. Missing values are
// skipped (they neither move the average nor get a smoothed value).

/**
 * Debiased EMA of `values` with weight `w` ∈ [0, 1) on the past (0 = no smoothing).
 * out[i] = ema_i / (1 − w^k), where k counts the finite values up to i; NaN where values[i]
 * is missing or not finite.
 */
export function debiasedEma(values: readonly (number | undefined)[], w: number): number[] {
  if (!(w >= 0 && w < 1)) throw new Error(`smoothing weight must be in [0, 1), got ${w}`);
  const out = new Array<number>(values.length);
  let ema = 0;
  let weight = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined || !Number.isFinite(v)) {
      out[i] = Number.NaN;
      continue;
    }
    ema = w * ema + (1 - w) * v;
    weight = w * weight + (1 - w);
    out[i] = ema / weight;
  }
  return out;
}
