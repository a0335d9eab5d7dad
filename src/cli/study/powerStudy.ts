// Round 13's rule (docs/echo-trap-round13.md, decided before its runs), for a study plan that
// names `multiplicity: holm`: each arm's trapped count against the control's (Fisher, one-sided)
// with Holm's adjustment over every judged arm; validity also needs the control trapped in at
// least `minControlTrapped`; the baseline arm (the smaller step) is the learner that holds when
// trapped in at most `maxBaselineTrapped`, and every arm's end is compared with both the control's
// and the baseline's, seed by seed (signed-rank, one-sided, zero differences dropped, effective n
// printed). Readings at other thresholds are shown and not judged.
import type { RunVerdict } from '../../core/metrics/verdict.js';
import { fisherLess, holm, mean, signedRank } from '../../core/stats.js';
import type { Plan } from './plan.js';
import { f2, p3, type ReportRun, trappedCount } from './reportRuns.js';

type Rule = NonNullable<Plan['study']>;

/** Seed-paired (arm − other) differences: mean, one-sided p both ways, effective n of all pairs. */
export interface PairedEnd {
  mean: number;
  pGreater: number;
  pLess: number;
  n: number;
  pairs: number;
}

export function pairedEnd(
  runs: readonly ReportRun[],
  other: readonly ReportRun[],
  f: (r: ReportRun) => number,
): PairedEnd | null {
  const bySeed = new Map(other.map((r) => [r.seed, r]));
  const diffs = runs.flatMap((r) => {
    const o = bySeed.get(r.seed);
    return o && Number.isFinite(f(r)) && Number.isFinite(f(o)) ? [f(r) - f(o)] : [];
  });
  if (diffs.length === 0) return null;
  const s = signedRank(diffs);
  return { mean: mean(diffs), pGreater: s.pGreater, pLess: s.pLess, n: s.n, pairs: diffs.length };
}

const trappedAt = (v: RunVerdict, z: number) =>
  v.verdict !== 'too-short' && (v.riseZ ?? 0) > z && (v.fallZ ?? 0) > z && (v.last ?? 1) <= (v.start ?? 0);

/** The thresholds shown beside the rule's z and not judged. */
export const OTHER_Z = [2, 2.5, 3.5, 4] as const;

export interface PowerArm {
  arm: string;
  trapped: number;
  runs: number;
  fisherP: number;
  holmP: number;
  last: PairedEnd | null;
  heldOut: PairedEnd | null;
  lastVsBaseline: PairedEnd | null;
  verdict: string;
}

const last10 = (r: ReportRun) => r.final;
const heldOutEnd = (r: ReportRun) => r.heldOut?.[1] ?? Number.NaN;

/** Every judged arm's verdict by the rule (all arms complete, the study valid). */
export function powerVerdicts(
  cells: Record<string, ReportRun[]>,
  arms: readonly string[],
  rule: Rule,
): PowerArm[] {
  const control = cells[rule.control] ?? [];
  const baseline = rule.baseline ? (cells[rule.baseline] ?? []) : [];
  const judged = arms.filter((a) => a !== rule.control && a !== rule.frozen);
  const fisher = judged.map((a) =>
    fisherLess(trappedCount(cells[a] ?? []), (cells[a] ?? []).length, trappedCount(control), control.length),
  );
  const adjusted = rule.multiplicity === 'holm' ? holm(fisher) : fisher;
  const alpha = rule.prevents.fisherP;
  return judged.map((arm, i) => {
    const runs = cells[arm] ?? [];
    const last = pairedEnd(runs, control, last10);
    const lastVsBaseline = arm === rule.baseline ? null : pairedEnd(runs, baseline, last10);
    const fewer = (adjusted[i] as number) <= alpha;
    const higher = last !== null && last.pGreater <= alpha;
    const lower = lastVsBaseline !== null && lastVsBaseline.pLess <= alpha;
    const verdict =
      fewer && higher
        ? `prevents the trap${lower ? ', but learns less than a smaller step' : ''}`
        : fewer
          ? 'fewer traps, but it ends no higher'
          : Math.abs(trappedCount(runs) - trappedCount(control)) <= rule.noEffectWithin
            ? 'does not prevent it'
            : `unclear at ${runs.length} seeds`;
    return {
      arm,
      trapped: trappedCount(runs),
      runs: runs.length,
      fisherP: fisher[i] as number,
      holmP: adjusted[i] as number,
      last,
      heldOut: pairedEnd(runs, control, heldOutEnd),
      lastVsBaseline,
      verdict,
    };
  });
}

const cmp = (x: PairedEnd | null, side: 'pGreater' | 'pLess') =>
  x ? `${f2(x.mean)} (p ${p3(x[side])}, n = ${x.n} of ${x.pairs})` : '–';

/** The validity lines of the rule beyond the frozen bound: the control's count, the baseline's. */
export function powerValidity(
  cells: Record<string, ReportRun[]>,
  rule: Rule,
): { lines: string[]; valid: boolean } {
  const count = (name: string) => trappedCount(cells[name] ?? []);
  const lines: string[] = [];
  let valid = true;
  if (rule.minControlTrapped !== undefined) {
    valid = count(rule.control) >= rule.minControlTrapped;
    lines.push(
      `**The control**: ${count(rule.control)} of ${(cells[rule.control] ?? []).length} trapped (the rule needs at least ${rule.minControlTrapped}).`,
    );
  }
  if (rule.baseline && rule.maxBaselineTrapped !== undefined) {
    const holds = count(rule.baseline) <= rule.maxBaselineTrapped;
    lines.push(
      `**The learner that holds** (${rule.baseline}): ${count(rule.baseline)} trapped (at most ${rule.maxBaselineTrapped}): ${holds ? 'it holds, the second null' : 'it does not hold: no learner that holds was measured, and the rule judges against the frozen null only'}.`,
    );
  }
  return { lines, valid };
}

/** The verdict table, then the trapped counts at the other thresholds (shown, not judged). */
export function powerTable(
  cells: Record<string, ReportRun[]>,
  arms: readonly string[],
  rule: Rule,
): string[] {
  const base = rule.baseline ?? '–';
  const rows = powerVerdicts(cells, arms, rule).map(
    (v) =>
      `| ${v.arm} | ${v.trapped} of ${v.runs} | ${p3(v.fisherP)} | ${p3(v.holmP)} | ${cmp(v.last, 'pGreater')} | ${cmp(v.heldOut, 'pGreater')} | ${cmp(v.lastVsBaseline, 'pLess')} | ${v.verdict} |`,
  );
  const zRows = arms.map((a) => {
    const runs = cells[a] ?? [];
    return `| ${a} | ${OTHER_Z.map((z) => `${runs.filter((r) => trappedAt(r.verdict, z)).length} of ${runs.length}`).join(' | ')} |`;
  });
  return [
    `| arm | trapped | Fisher p (fewer than ${rule.control}) | Holm-adjusted | last 10 − ${rule.control}'s (p, higher; effective n) | greedy held-out at the end − ${rule.control}'s (p, higher) | last 10 − ${base}'s (p, lower) | verdict |`,
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Trapped at other thresholds (shown, not judged; the rule's is z = 3): z = ${OTHER_Z.join(', ')}.`,
    '',
    `| arm | ${OTHER_Z.map((z) => `z ${z}`).join(' | ')} |`,
    `|---|${OTHER_Z.map(() => '---').join('|')}|`,
    ...zRows,
  ];
}
