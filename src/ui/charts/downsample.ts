// Long series are thinned before they reach a chart (W&B samples to 1500 points), so the DOM
// never holds an unbounded number of points. Largest-Triangle-Three-Buckets (Steinarsson 2013)
// keeps the first and last points and, per bucket, the point that spans the largest triangle
// with its neighbours, so spikes (gradient-norm, collapse) survive the thinning.

/**
 * Indices of at most `threshold` points of the series (xs ascending) chosen by LTTB; all
 * indices when the series is already short enough. `threshold` must be at least 3.
 */
export function lttbIndices(xs: readonly number[], ys: readonly number[], threshold: number): number[] {
  const n = xs.length;
  if (threshold < 3) throw new Error(`lttb threshold must be at least 3, got ${threshold}`);
  if (n <= threshold) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [0];
  const every = (n - 2) / (threshold - 2);
  let a = 0;
  for (let b = 0; b < threshold - 2; b++) {
    // The average of the next bucket is the third corner of the triangle.
    const nextStart = Math.floor((b + 1) * every) + 1;
    const nextEnd = Math.min(n, Math.floor((b + 2) * every) + 1);
    let avgX = 0;
    let avgY = 0;
    for (let j = nextStart; j < nextEnd; j++) {
      avgX += xs[j] as number;
      avgY += ys[j] as number;
    }
    const len = Math.max(1, nextEnd - nextStart);
    avgX /= len;
    avgY /= len;
    const start = Math.floor(b * every) + 1;
    const end = Math.floor((b + 1) * every) + 1;
    const ax = xs[a] as number;
    const ay = ys[a] as number;
    let best = start;
    let bestArea = -1;
    for (let j = start; j < end; j++) {
      const area = Math.abs((ax - avgX) * ((ys[j] as number) - ay) - (ax - (xs[j] as number)) * (avgY - ay));
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    out.push(best);
    a = best;
  }
  out.push(n - 1);
  return out;
}
