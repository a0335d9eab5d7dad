// RAGEN-2's gradient split read off one run (round 13's mechanism, reported, not judged): on the
// MI iterations that log it, the norm of the task loss's gradient against the KL term's and the
// entropy term's (actor/gradNorm/task|kl|entropy). RAGEN-2's claim is that once in-group reward
// variance is low the regularizers' gradients outweigh the task's; here, for each run, the first
// measured iteration at which the task part fell below each of them, and how many measurements
// had it below.
import type { MetricRow } from './keys.js';

export interface GradientSplitReading {
  /** Iterations that logged the split. */
  measured: number;
  /** Whether the run logged a KL part and an entropy part (absent when the term is off). */
  hasKl: boolean;
  hasEntropy: boolean;
  /** First measured iteration with the task part below the KL part (null: never). */
  taskBelowKl: number | null;
  /** First measured iteration with the task part below the entropy part (null: never). */
  taskBelowEntropy: number | null;
  /** Measurements with the task part below the larger regularizer part. */
  below: number;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The run's split, or null when it never logged one (runs made before the split existed). */
export function gradientSplitOf(rows: readonly MetricRow[]): GradientSplitReading | null {
  const points = rows
    .map((r) => ({
      it: r.iteration,
      task: num(r['actor/gradNorm/task']),
      kl: num(r['actor/gradNorm/kl']),
      entropy: num(r['actor/gradNorm/entropy']),
    }))
    .filter(
      (p): p is { it: number; task: number; kl: number | null; entropy: number | null } => p.task !== null,
    );
  if (points.length === 0) return null;
  const first = (below: (p: (typeof points)[number]) => boolean) => points.find(below)?.it ?? null;
  return {
    measured: points.length,
    hasKl: points.some((p) => p.kl !== null),
    hasEntropy: points.some((p) => p.entropy !== null),
    taskBelowKl: first((p) => p.kl !== null && p.task < p.kl),
    taskBelowEntropy: first((p) => p.entropy !== null && p.task < p.entropy),
    below: points.filter(
      (p) => p.task < Math.max(p.kl ?? Number.NEGATIVE_INFINITY, p.entropy ?? Number.NEGATIVE_INFINITY),
    ).length,
  };
}
