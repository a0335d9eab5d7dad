// Reading a study's run directories back and turning them into the tables of docs/echo-trap.md:
// success per algorithm (final and peak, mean ± std over seeds), echo-trap occurrence and
// recovery, steps and samples per step, the early-warning table (how often each signal fired
// before a collapse, how early, and how often in runs that never collapsed), and wall time.
// Every verdict is the detector's (core/metrics/detector.ts) run again over the stored rows with
// the run's own config, so a report written after the detector changes judges old runs by it too.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../core/config.js';
import { detectRun, type RunSummary } from '../../core/metrics/detector.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import { mean, meanStd } from '../../core/stats.js';
import { readRecordRows } from '../runRecords.js';
import { completeStoredConfig } from '../sweepRunner.js';

export interface StudyRun {
  env: string;
  variant: string;
  algo: string;
  seed: number;
  dir: string;
}

export interface LoadedRun extends StudyRun {
  rows: MetricRow[];
  /** The run's summary.json as stored (its verdict is the detector's at run time). */
  stored: Record<string, unknown>;
  /** Today's detector's whole summary over the stored rows. */
  judged: RunSummary;
  summary: {
    echoTrap: boolean;
    recovered: boolean;
    peakSuccess: number;
    finalSuccess: number;
    firstWarningLead: number | null;
    collapseIteration: number | null;
    firstFired: Record<string, number>;
    wallSeconds: number;
    secondsPerIteration: number;
    iterations: number;
  };
}

/** Signals of the early-warning table: warnings first, then context. */
export const WARNING_SIGNALS = [
  ['thinkMiDrop', 'think MI drop'],
  ['modalThinkRise', 'modal think share rise'],
  ['malformedRise', 'malformed rate rise'],
  ['heldOutDrop', 'held-out success drop'],
  ['actionMiDrop', 'action MI drop (context)'],
  ['rewardStdDrop', 'reward-std drop (context)'],
  ['entropyRise', 'entropy rise (context)'],
  ['entropyDrop', 'entropy drop (context)'],
  ['gradNormSpike', 'grad-norm spike (context)'],
] as const;

/**
 * A run directory's rows with the detector's verdict on them: echo trap, recovery, peak, final
 * and first firings recomputed from metrics.jsonl (plain or .gz) with the run's config.json
 * (P × N); wall time and iterations from summary.json. Null while the run has no summary yet.
 */
export async function loadRun(run: StudyRun): Promise<LoadedRun | null> {
  try {
    const stored = JSON.parse(await readFile(join(run.dir, 'summary.json'), 'utf8'));
    // Fields added since the run was made take today's defaults (the detector reads P × N).
    const config = completeStoredConfig(
      JSON.parse(await readFile(join(run.dir, 'config.json'), 'utf8')),
    ) as unknown as Config;
    const rows = await readRecordRows<MetricRow>(run.dir, 'metrics.jsonl');
    const s = detectRun(config, rows).summary();
    const summary: LoadedRun['summary'] = {
      echoTrap: s.echoTrap,
      recovered: s.recovered,
      peakSuccess: s.peakSuccess,
      finalSuccess: s.finalSuccess,
      firstWarningLead: s.firstWarningLead,
      collapseIteration: s.collapseIteration,
      firstFired: s.firstFired,
      wallSeconds: stored.wallSeconds,
      secondsPerIteration: stored.secondsPerIteration,
      iterations: stored.iterations,
    };
    return { ...run, rows, summary, stored, judged: s };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

const fmt = (m: { mean: number; std: number }, d = 2) =>
  Number.isNaN(m.mean) ? '–' : `${m.mean.toFixed(d)} ± ${m.std.toFixed(d)}`;

/** Greedy held-out success over a run: the last evaluated value and the best one. */
export function evalSuccess(rows: readonly MetricRow[]): { final: number; peak: number } {
  const vals = rows.map((r) => r['eval/successRate']).filter((v): v is number => typeof v === 'number');
  if (vals.length === 0) return { final: Number.NaN, peak: Number.NaN };
  return { final: vals[vals.length - 1] as number, peak: Math.max(...vals) };
}

function meanOf(rows: readonly MetricRow[], key: keyof MetricRow): number {
  const v = rows.map((r) => r[key]).filter((x): x is number => typeof x === 'number');
  return mean(v);
}

function group<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) m.set(key(it), [...(m.get(key(it)) ?? []), it]);
  return m;
}

/** The main comparison for one env and variant: one row per algorithm. */
export function comparisonTable(runs: readonly LoadedRun[]): string {
  const lines = [
    '| algorithm | runs | optimizer steps / iter | samples / step | greedy success final | greedy success peak | train success final | train success peak | echo traps | recovered | s / iteration |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [algo, rs] of group(runs, (r) => r.algo)) {
    const ev = rs.map((r) => evalSuccess(r.rows));
    const traps = rs.filter((r) => r.summary.echoTrap).length;
    const rec = rs.filter((r) => r.summary.echoTrap && r.summary.recovered).length;
    lines.push(
      `| ${algo} | ${rs.length} | ${meanStd(rs.map((r) => meanOf(r.rows, 'actor/optimizerSteps'))).mean.toFixed(1)} | ${meanStd(rs.map((r) => meanOf(r.rows, 'actor/samplesPerStep'))).mean.toFixed(1)} | ${fmt(meanStd(ev.map((e) => e.final).filter((x) => !Number.isNaN(x))))} | ${fmt(meanStd(ev.map((e) => e.peak).filter((x) => !Number.isNaN(x))))} | ${fmt(meanStd(rs.map((r) => r.summary.finalSuccess)))} | ${fmt(meanStd(rs.map((r) => r.summary.peakSuccess)))} | ${traps}/${rs.length} | ${traps > 0 ? `${rec}/${traps}` : '–'} | ${meanStd(rs.map((r) => r.summary.secondsPerIteration)).mean.toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}

/** For each signal: fired before a collapse (of collapsed runs), mean lead, fired in healthy runs. */
export function earlyWarningTable(runs: readonly LoadedRun[]): string {
  const collapsed = runs.filter((r) => r.summary.echoTrap && r.summary.collapseIteration !== null);
  const healthy = runs.filter((r) => !r.summary.echoTrap);
  const lines = [
    `| signal | fired before collapse (of ${collapsed.length} collapsed) | mean lead (iterations) | fired in runs that never collapsed (of ${healthy.length}) |`,
    '|---|---|---|---|',
  ];
  for (const [key, label] of WARNING_SIGNALS) {
    const leads = collapsed
      .filter(
        (r) =>
          r.summary.firstFired[key] !== undefined &&
          r.summary.firstFired[key]! <= r.summary.collapseIteration!,
      )
      .map((r) => r.summary.collapseIteration! - r.summary.firstFired[key]!);
    const falseAlarms = healthy.filter((r) => r.summary.firstFired[key] !== undefined).length;
    lines.push(
      `| ${label} | ${leads.length} | ${leads.length > 0 ? meanStd(leads).mean.toFixed(1) : '–'} | ${falseAlarms} |`,
    );
  }
  return lines.join('\n');
}

/** Ablation variants of one algorithm: one row per variant. */
export function ablationTable(runs: readonly LoadedRun[]): string {
  const lines = [
    '| variant | runs | echo traps | train success peak | train success final | greedy success final |',
    '|---|---|---|---|---|---|',
  ];
  for (const [variant, rs] of group(runs, (r) => r.variant)) {
    lines.push(
      `| ${variant} | ${rs.length} | ${rs.filter((r) => r.summary.echoTrap).length}/${rs.length} | ${fmt(meanStd(rs.map((r) => r.summary.peakSuccess)))} | ${fmt(meanStd(rs.map((r) => r.summary.finalSuccess)))} | ${fmt(meanStd(rs.map((r) => evalSuccess(r.rows).final).filter((x) => !Number.isNaN(x))))} |`,
    );
  }
  return lines.join('\n');
}

/** Wall time per run and per iteration, per env and variant. */
export function wallTable(runs: readonly LoadedRun[]): string {
  const lines = ['| env | variant | runs | s / run (mean) | s / iteration (mean) |', '|---|---|---|---|---|'];
  for (const rs of group(runs, (r) => `${r.env}\u0000${r.variant}`).values()) {
    lines.push(
      `| ${rs[0]!.env} | ${rs[0]!.variant} | ${rs.length} | ${meanStd(rs.map((r) => r.summary.wallSeconds)).mean.toFixed(0)} | ${meanStd(rs.map((r) => r.summary.secondsPerIteration)).mean.toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}
