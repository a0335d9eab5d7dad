// How chart numbers are printed: legend and tooltip values (a value within float noise of zero
// on the chart's scale prints as 0 — a smoothed success of 0 is 0, not 7.13e-11), linear-axis
// ticks with as many decimals as the visible span needs, and log-axis ticks in significant
// digits or exponents (1e-4, 0.001, 0.5 — never 0.0 three times).

/** Values smaller than this share of the chart's scale are zero up to rounding noise. */
const NOISE = 1e-6;

/** A value for legends and tooltips; `scale` is the largest magnitude on the chart (default 1). */
export function formatValue(v: number, scale = 1): string {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a < NOISE * (Number.isFinite(scale) && scale > 0 ? scale : 1)) return '0';
  if (a < 1e-3 || a >= 1e5) return v.toExponential(2);
  return a >= 100 ? v.toFixed(0) : v.toPrecision(3);
}

/** Linear-axis ticks with as many decimals as the visible span needs (3.9712 vs 3.9698). */
export function linearTickFormatter(range: [number, number] | null): (v: number) => string {
  const span = range ? Math.abs(range[1] - range[0]) : 0;
  const scale = range ? Math.max(Math.abs(range[0]), Math.abs(range[1])) : 0;
  const decimals = span > 0 ? Math.min(6, Math.max(0, Math.ceil(-Math.log10(span)) + 1)) : 2;
  return (v: number) => {
    const a = Math.abs(v);
    if (a < NOISE * Math.max(span, scale, Number.MIN_VALUE)) return '0';
    if (a < 1e-4 || a >= 1e5) return v.toExponential(1);
    return v.toFixed(a >= 100 ? 0 : decimals);
  };
}

/** A log-axis tick: two significant digits, exponent form below 1e-3 and from 1e4 on. */
export function logTick(v: number): string {
  if (!Number.isFinite(v) || v <= 0) return '';
  if (v < 1e-3 || v >= 1e4) {
    const [m, e] = v.toExponential(1).split('e') as [string, string];
    return `${m.replace(/\.0$/, '')}e${Number(e)}`;
  }
  return String(Number(v.toPrecision(2)));
}
