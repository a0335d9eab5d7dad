// The tour's claims about its recording, computed from the recording alone: how the recorded
// algorithm forms its advantages (from the recorded config, not from the algorithm's name),
// whether success rose, fell or wandered over the replayed stretch, how a metric moved (with
// "hardly changed" where it did — never offered as evidence), the latest measured value of a
// sparse metric (MI is measured every few iterations) and a late sample that failed, to read the
// templated thinking of a collapsing run, and for a run not flagged, what its success did ("no
// echo trap" also describes a run that never rose). Pure functions over RunData, tested on the
// shipped recordings (tourText.test.ts).
import type { Config } from '../../core/config.js';
import { DEFAULT_DETECTOR, type RunSummary } from '../../core/metrics/detector.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { SampledTrajectory } from '../../core/rl/trainer.js';
import { mean } from '../../core/stats.js';

/** Relative changes below this are "hardly changed". */
const FLAT = 0.1;

const value = (row: MetricRow, key: string) => (row as Record<string, number | undefined>)[key];
const finite = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);

/** How the recorded config forms its advantages, in one clause (keyed by the advantage switch). */
export function advantageWords(c: Pick<Config, 'advantage' | 'gamma' | 'lambda' | 'groupSize'>): string {
  const table: Record<Config['advantage'], string> = {
    gae: `a critic learns each state's value and each token's advantage is its GAE estimate (γ = ${c.gamma}, λ = ${c.lambda})`,
    grpo: `each rollout's advantage is its reward normalised within its group of ${c.groupSize} rollouts from the same start state (GRPO, no critic)`,
    'turn-gae': `a critic scores each turn and the advantage is GAE over turns (γ = ${c.gamma}, λ = ${c.lambda})`,
    none: 'no advantage is formed (preference pairs are compared directly)',
  };
  return table[c.advantage];
}

/** Mean of `key` over rows with iteration in [from, to). */
export function meanOver(
  rows: readonly MetricRow[],
  key: string,
  from: number,
  to: number,
): number | undefined {
  const xs = rows
    .filter((r) => r.iteration >= from && r.iteration < to)
    .map((r) => value(r, key))
    .filter(finite);
  return xs.length ? mean(xs) : undefined;
}

export type Trend = 'rose' | 'fell' | 'flat' | 'unknown';

/** Whether `b` rose, fell or hardly changed against `a` (relative change under 10%: flat). */
export function trend(a: number | undefined, b: number | undefined): Trend {
  if (!finite(a) || !finite(b)) return 'unknown';
  const scale = Math.max(Math.abs(a), Math.abs(b));
  if (scale === 0 || Math.abs(b - a) / scale < FLAT) return 'flat';
  return b > a ? 'rose' : 'fell';
}

const fmt = (v: number) => v.toPrecision(3);

/** "0.354 → 0.353, hardly changed" / "1.24 → 0.54, fell" / "not measured". */
export function changeWords(a: number | undefined, b: number | undefined): string {
  const t = trend(a, b);
  if (t === 'unknown' || !finite(a) || !finite(b)) return 'not measured in both stretches';
  const words = { rose: 'rose', fell: 'fell', flat: 'hardly changed' }[t];
  return `${fmt(a)} → ${fmt(b)}, ${words}`;
}

/** What success did over iterations [0, to): the first and last thirds compared. */
export function successStretch(
  rows: readonly MetricRow[],
  to: number,
  key = 'rollout/successRate',
): { trend: Trend; from: number | undefined; to: number | undefined } {
  const third = Math.max(1, Math.floor(to / 3));
  const from = meanOver(rows, key, 0, third);
  const end = meanOver(rows, key, to - third, to);
  return { trend: trend(from, end), from, to: end };
}

/** The invitation of the replay's first stretch, true to what success does there. */
export function watchWords(s: ReturnType<typeof successStretch>): string {
  const pct = (v: number | undefined) => (finite(v) ? `${Math.round(v * 100)}%` : '–');
  const range = `${pct(s.from)} in the first third, ${pct(s.to)} in the last`;
  if (s.trend === 'rose') return `Watch success rise (${range}).`;
  if (s.trend === 'fell') return `Watch success: it falls in this stretch (${range}).`;
  if (s.trend === 'flat') return `Watch success wander without a clear rise yet (${range}).`;
  return 'Watch the success chart.';
}

/**
 * For a run the detector did not flag, what its training success did: the mean over the warm-up
 * (the detector's start), the best window after it and the final mean. "No echo trap" needs a
 * rise first, so a run that never rose is not flagged either; '' for a flagged run or no summary.
 */
export function noTrapWords(
  rows: readonly MetricRow[],
  summary: Pick<RunSummary, 'echoTrap' | 'peakSuccess' | 'finalSuccess'> | null,
): string {
  if (!summary || summary.echoTrap) return '';
  const pct = (v: number | undefined) => (finite(v) ? `${Math.round(v * 100)}%` : '–');
  const { warmup, window } = DEFAULT_DETECTOR;
  const start = meanOver(rows, 'rollout/successRate', 0, warmup);
  return `No echo trap is not the same as holding: the rule needs a rise before a fall. Its success went from ${pct(start)} over the first ${warmup} iterations to a best ${window}-iteration window of ${pct(summary.peakSuccess)}, and ended at ${pct(summary.finalSuccess)}.`;
}

/** The last measured value of a sparse metric before `upTo`, with its iteration. */
export function latestBefore(
  rows: readonly MetricRow[],
  key: string,
  upTo: number,
): { iteration: number; value: number } | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i] as MetricRow;
    const v = value(r, key);
    if (r.iteration < upTo && finite(v)) return { iteration: r.iteration, value: v };
  }
  return null;
}

/** The first measured value of a metric, with its iteration. */
export function firstMeasured(
  rows: readonly MetricRow[],
  key: string,
): { iteration: number; value: number } | null {
  for (const r of rows) {
    const v = value(r, key);
    if (finite(v)) return { iteration: r.iteration, value: v };
  }
  return null;
}

/**
 * The sample to read the late thinking from: the latest failed sample before `before`, else the
 * latest sample before it (null without samples). Index into `samples`.
 */
export function lateFailure(samples: readonly SampledTrajectory[], before: number): number | null {
  let failed: number | null = null;
  let any: number | null = null;
  samples.forEach((s, i) => {
    if (s.iteration >= before) return;
    const bestAny = any === null ? undefined : samples[any];
    if (!bestAny || s.iteration >= bestAny.iteration) any = i;
    const bestFailed = failed === null ? undefined : samples[failed];
    if (!s.success && (!bestFailed || s.iteration >= bestFailed.iteration)) failed = i;
  });
  return failed ?? any;
}
