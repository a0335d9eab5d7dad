// Time per iteration and the ETA toward the planned iterations, from the run's own timings.
import type { MetricRow } from '../../core/metrics/keys.js';

/**
 * Mean rollout + update + measurement milliseconds over the last `window` rows, leaving out the
 * run's first row (its warm-up: kernels compiled, caches filled; it alone made the first ETA
 * four times too long); null before the second.
 */
export function msPerIteration(rows: readonly MetricRow[], window = 10): number | null {
  const recent = rows.slice(1).slice(-window);
  if (recent.length === 0) return null;
  const total = recent.reduce(
    (a, r) => a + (r['time/rolloutMs'] ?? 0) + (r['time/updateMs'] ?? 0) + (r['time/measureMs'] ?? 0),
    0,
  );
  return total / recent.length;
}

/** "ETA 2 min 05 s" for `remaining` iterations at `ms` each. */
export function etaText(ms: number | null, remaining: number): string {
  if (ms === null || remaining <= 0) return '';
  const s = Math.round((ms * remaining) / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  const when =
    h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : m > 0 ? `${m} min ${sec} s` : `${s % 60} s`;
  return `${Math.round(ms)} ms/iteration · ETA ${when}`;
}
