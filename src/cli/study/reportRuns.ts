// The runs of a round's cell as its reports read them: each judged once by the pre-registered
// detector (its table row, its verdict, RAGEN's mechanism onsets), with the commit and plan hash
// it was run at, and the shared table of every run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { detectRun } from '../../core/metrics/detector.js';
import { type GradientSplitReading, gradientSplitOf } from '../../core/metrics/gradientSplit.js';
import { type Mechanism, mechanismOf, ONSETS } from '../../core/metrics/mechanism.js';
import { type RunVerdict, VERDICT_LABELS } from '../../core/metrics/verdict.js';
import { wilsonInterval } from '../../core/stats.js';
import { type CalRun, finishedRuns } from './calibrate.js';
import { judgeRun, type RoundRun } from './round.js';

/** One run as the report reads it. */
export interface ReportRun extends RoundRun {
  verdict: RunVerdict;
  mechanism: Mechanism;
  /** RAGEN-2's gradient split; absent where the run did not log it (so older reports read as written). */
  split?: GradientSplitReading;
  commit: string | null;
  planHash: string | null;
}

export async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

export async function cellRunsOf(dir: string, cell: string): Promise<ReportRun[]> {
  const runs: CalRun[] = (await finishedRuns(join(dir, cell), dir)).sort(
    (a, b) => a.config.seed - b.config.seed,
  );
  const out: ReportRun[] = [];
  for (const run of runs) {
    const prov = await readJson<{ commit?: string; planHash?: string }>(join(run.dir, 'provenance.json'));
    // One detector judges the run for both the round's table and its verdict.
    const d = detectRun(run.config, run.rows);
    const split = gradientSplitOf(run.rows);
    out.push({
      ...judgeRun(cell, run, d),
      verdict: d.summary().verdict as RunVerdict,
      mechanism: mechanismOf(run.rows),
      ...(split ? { split } : {}),
      commit: prov?.commit ?? null,
      planHash: prov?.planHash ?? null,
    });
  }
  return out;
}

/** A p-value as the reports print it ('–' for none). */
export const p3 = (p: number | null) => (p === null ? '–' : p < 0.001 ? '< 0.001' : p.toFixed(3));

/** The count of `runs` the rule judged trapped. */
export const trappedCount = (runs: readonly { verdict: { verdict: string } }[]) =>
  runs.filter((r) => r.verdict.verdict === 'trapped').length;

export const f2 = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x.toFixed(2) : '–');
export const f1 = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x.toFixed(1) : '–');
export const pm = (x?: number, se?: number) => `${f2(x)} ± ${f2(se)}`;
export const kOf = (k: number, n: number) => {
  const [lo, hi] = wilsonInterval(k, n);
  return n > 0 ? `${k} of ${n} (95% interval ${f2(lo)}–${f2(hi)})` : '0 of 0';
};

export function runsTable(runs: readonly ReportRun[]): string {
  const head =
    '| seed | verdict | start | peak (it.) | last 10 | rise, fall (SE) | greedy held-out (base → end) | malformed | modal think | think MI | mode | s/it |\n|---|---|---|---|---|---|---|---|---|---|---|---|';
  const rows = runs.map((r) => {
    const v = r.verdict;
    const verdict =
      v.verdict === 'trapped'
        ? `**trapped** (${v.collapseIteration})`
        : VERDICT_LABELS[v.verdict].toLowerCase();
    return `| ${r.seed} | ${verdict} | ${pm(v.start, v.seStart)} | ${pm(v.peak, v.sePeak)} (${v.peakIteration ?? '–'}) | ${pm(v.last, v.seLast)} | ${f1(v.riseZ)}, ${f1(v.fallZ)} | ${f2(r.heldOut[0])} → ${f2(r.heldOut[1])} | ${f2(r.signals.malformed[0])} → ${f2(r.signals.malformed[1])} | ${f2(r.signals.modalThink[0])} → ${f2(r.signals.modalThink[1])} | ${f2(r.signals.thinkMi[0])} → ${f2(r.signals.thinkMi[1])} | ${r.final <= r.start ? r.mode : '–'} | ${f2(r.secondsPerIteration ?? undefined)} |`;
  });
  return [head, ...rows].join('\n');
}

/** Each learning run's mechanism onsets against its fall (RAGEN's precursors, round 11's table). */
export function mechanismTable(runs: readonly ReportRun[]): string {
  const head = `| cell | seed | verdict | fall | ${ONSETS.join(' | ')} |\n|---|---|---|---|${ONSETS.map(() => '---|').join('')}`;
  const cellOf = (r: ReportRun, o: (typeof ONSETS)[number]) => {
    const at = r.mechanism.onsets[o];
    if (at === undefined) return 'never';
    return r.mechanism.fall !== null ? `${at} (lead ${r.mechanism.fall - at})` : String(at);
  };
  return [
    head,
    ...runs.map(
      (r) =>
        `| ${r.cell} | ${r.seed} | ${r.verdict.verdict} | ${r.mechanism.fall ?? 'never'} | ${ONSETS.map((o) => cellOf(r, o)).join(' | ')} |`,
    ),
  ].join('\n');
}

/**
 * RAGEN-2's gradient split of each run that logged it: the first measured iteration with the task
 * part below the KL part and below the entropy part (with the lead before the fall, when there is
 * one), and how many measurements had it below the larger of them.
 */
export function gradientSplitTable(runs: readonly ReportRun[]): string {
  const at = (r: ReportRun, it: number | null, logged: boolean) => {
    if (!logged) return 'not logged (term off)';
    if (it === null) return 'never';
    return r.collapseIteration !== null && it <= r.collapseIteration
      ? `${it} (lead ${r.collapseIteration - it})`
      : String(it);
  };
  const head =
    '| cell | seed | verdict | trapped at | task < KL first | task < entropy first | measurements with task below |\n|---|---|---|---|---|---|---|';
  const rows = runs.flatMap((r) =>
    r.split
      ? [
          `| ${r.cell} | ${r.seed} | ${r.verdict.verdict} | ${r.collapseIteration ?? '–'} | ${at(r, r.split.taskBelowKl, r.split.hasKl)} | ${at(r, r.split.taskBelowEntropy, r.split.hasEntropy)} | ${r.split.below} of ${r.split.measured} |`,
        ]
      : [],
  );
  return [head, ...rows].join('\n');
}
