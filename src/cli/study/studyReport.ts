// A study's report (a plan of batches with a `study` rule, no cells): every arm's runs judged by
// the pre-registered detector, its trapped count against the control's (Fisher's exact test,
// one-sided: fewer traps), its last 10 against the control's seed by seed (signed-rank), and the
// plan's verdict per arm — prevents the trap, does not, or unclear at this many seeds — judged
// only when the study is valid: the frozen arm within its false-alarm bound and, where the plan
// says so, the control's runs equal the stored runs they repeat, row for row.
import { join } from 'node:path';
import { isClockKey, type MetricRow, rowWithout } from '../../core/metrics/keys.js';
import { fisherLess } from '../../core/stats.js';
import { type CalRun, finishedRuns } from './calibrate.js';
import type { LoadedPlan, Plan } from './plan.js';
import { type PairedEnd, pairedEnd, powerTable, powerValidity } from './powerStudy.js';
import {
  cellRunsOf,
  f2,
  gradientSplitTable,
  kOf,
  mechanismTable,
  p3,
  type ReportRun,
  runsTable,
  trappedCount,
} from './reportRuns.js';

export type StudyRule = NonNullable<Plan['study']>;

/** Seed-paired differences (arm − control): powerStudy.ts pairedEnd. */
export type Paired = PairedEnd;

/** One arm against the control. */
export interface ArmVerdict {
  arm: string;
  runs: number;
  trapped: number;
  fisherP: number | null;
  /** Seed-paired (arm − control) of the last 10's mean success: its mean and the signed-rank p that the arm ends higher. */
  lastVsControl: Paired | null;
  /** The same for greedy held-out success at the last evaluation. */
  heldOutVsControl: Paired | null;
  verdict:
    | 'prevents the trap'
    | 'does not prevent it'
    | 'does not prevent it: fewer traps, but it ends no higher'
    | 'unclear at this many seeds'
    | 'the control'
    | 'not judged';
}

/**
 * The rule applied to one arm's runs against the control's (both complete). Fewer traps alone do
 * not prevent the trap: the rule, as written before its runs, reports the last 10 against the
 * control's seed by seed "so that 'did not trap' is never read as 'learned': an arm that never
 * rises does not prevent a trap". So an arm prevents it only if its last 10 also end higher than
 * the control's (signed-rank, one-sided, at the rule's `fisherP`); with fewer traps but no higher
 * end (its runs collapsed without a rise, or ended as low as the control's) it does not.
 */
export function armVerdict(
  arm: string,
  runs: readonly ReportRun[],
  control: readonly ReportRun[],
  rule: StudyRule,
): ArmVerdict {
  const trapped = trappedCount(runs);
  const cTrapped = trappedCount(control);
  if (arm === rule.control)
    return {
      arm,
      runs: runs.length,
      trapped,
      fisherP: null,
      lastVsControl: null,
      heldOutVsControl: null,
      verdict: 'the control',
    };
  const fisherP = fisherLess(trapped, runs.length, cTrapped, control.length);
  const lastVsControl = pairedEnd(runs, control, (r) => r.final);
  const heldOutVsControl = pairedEnd(runs, control, (r) => r.heldOut?.[1] ?? Number.NaN);
  const fewer = trapped <= rule.prevents.maxTrapped && fisherP <= rule.prevents.fisherP;
  const endsHigher = lastVsControl !== null && lastVsControl.pGreater <= rule.prevents.fisherP;
  const verdict =
    arm === rule.frozen
      ? 'not judged'
      : fewer && endsHigher
        ? 'prevents the trap'
        : fewer
          ? 'does not prevent it: fewer traps, but it ends no higher'
          : Math.abs(trapped - cTrapped) <= rule.noEffectWithin
            ? 'does not prevent it'
            : 'unclear at this many seeds';
  return { arm, runs: runs.length, trapped, fisherP, lastVsControl, heldOutVsControl, verdict };
}

/**
 * Metric rows without the machine's clock: the timings and the throughputs (tokens and env steps
 * a second), which differ between two runs of the same config; every other number must match.
 */
function untimed(rows: readonly MetricRow[]): string {
  return JSON.stringify(rows.map((r) => rowWithout(r, isClockKey)));
}

/** Seeds whose control run differs from the stored run it repeats (missing ones are not compared). */
export function unreproduced(control: readonly CalRun[], stored: readonly CalRun[]): number[] {
  const bySeed = new Map(stored.map((r) => [r.config.seed, r]));
  return control
    .filter((r) => {
      const s = bySeed.get(r.config.seed);
      return s !== undefined && untimed(s.rows) !== untimed(r.rows);
    })
    .map((r) => r.config.seed);
}

/** Each arm's runs by verdict, and what "held" and "rose first" mean. */
function countsTable(plan: Plan, cells: Record<string, ReportRun[]>): string[] {
  const planned = (name: string) => plan.batches.find((b) => b.name === name)?.seeds.length ?? 0;
  const lines: string[] = [];
  lines.push(
    '| arm | runs | trapped | collapsed without a rise | held | of which rose first | too short |',
    '|---|---|---|---|---|---|---|',
  );
  for (const b of plan.batches) {
    const runs = cells[b.name] ?? [];
    const n = (v: string) => runs.filter((r) => r.verdict.verdict === v).length;
    const roseAndHeld = runs.filter(
      (r) => r.verdict.verdict === 'held' && (r.verdict.riseZ ?? 0) > r.verdict.z,
    ).length;
    lines.push(
      `| ${b.name} | ${runs.length} of ${planned(b.name)} | ${kOf(n('trapped'), runs.length)} | ${n('collapsed')} | ${n('held')} | ${roseAndHeld} | ${n('too-short')} |`,
    );
  }
  lines.push(
    '',
    `Held: success did not end below its start beyond the noise; "rose first": its success first rose more than ${plan.trapRule.z} standard errors above its start.`,
    '',
  );
  return lines;
}

/** The study's Markdown: validity, the arms against the control, every run. */
export async function studyReport(
  lp: LoadedPlan,
  root = '.',
): Promise<{ markdown: string; cells: Record<string, ReportRun[]> }> {
  const { plan } = lp;
  const rule = plan.study;
  if (!rule) throw new Error(`${lp.path}: a study report needs the plan's study rule`);
  const cells: Record<string, ReportRun[]> = {};
  for (const b of plan.batches) cells[b.name] = await cellRunsOf(lp.dir, b.name);
  const complete = plan.batches.every((b) => (cells[b.name]?.length ?? 0) >= b.seeds.length);
  const control = cells[rule.control] ?? [];
  const frozen = cells[rule.frozen] ?? [];
  const flagged = frozen.filter((r) => r.verdict.verdict === 'trapped').length;
  const lines = [
    `${plan.title}. Every run judged by the pre-registered detector (z = ${plan.trapRule.z}).`,
    '',
  ];
  lines.push(...countsTable(plan, cells));
  let valid = flagged <= rule.maxFrozenFlagged;
  lines.push(
    `**Frozen control**: ${flagged} of ${frozen.length} flagged (the rule allows ${rule.maxFrozenFlagged}).`,
  );
  if (rule.reproduces) {
    const controlRuns = await finishedRuns(join(lp.dir, rule.control), lp.dir);
    const stored = await finishedRuns(join(root, rule.reproduces), root);
    const off = unreproduced(controlRuns, stored);
    const compared = controlRuns.filter((r) => stored.some((s) => s.config.seed === r.config.seed)).length;
    valid &&= off.length === 0;
    lines.push(
      off.length > 0
        ? `**The control does not reproduce ${rule.reproduces}** on seeds ${off.join(', ')}: the study judges nothing until that is explained.`
        : compared === 0
          ? `**The control against ${rule.reproduces}**: no seed compared yet.`
          : `**The control reproduces ${rule.reproduces}**: the ${compared} seeds both ran have the same metric rows (timings and throughputs aside).`,
    );
  }
  const power = rule.multiplicity === 'holm' ? powerValidity(cells, rule) : null;
  if (power) {
    lines.push(...power.lines);
    valid &&= power.valid;
  }
  lines.push('');
  if (!complete) lines.push('Not every arm has all its runs: the verdicts below wait for them.', '');
  else if (!valid) lines.push('The study is not valid by its own rule: no arm is judged.', '');
  else if (power)
    lines.push(
      ...powerTable(
        cells,
        plan.batches.map((b) => b.name),
        rule,
      ),
      '',
    );
  else {
    lines.push(
      `| arm | trapped | Fisher p (fewer traps than ${rule.control}) | last 10 − ${rule.control}'s, seed by seed (signed-rank p, higher) | greedy held-out at the end − ${rule.control}'s (p, higher) | verdict |`,
      '|---|---|---|---|---|---|',
    );
    for (const b of plan.batches) {
      const v = armVerdict(b.name, cells[b.name] ?? [], control, rule);
      // The effective n: pairs with a zero difference drop out of the signed-rank test.
      const cmp = (x: Paired | null) =>
        x ? `${f2(x.mean)} (p ${p3(x.pGreater)}, n = ${x.n} of ${x.pairs} seeds)` : '–';
      lines.push(
        `| ${b.name} | ${v.trapped} of ${v.runs} | ${p3(v.fisherP)} | ${cmp(v.lastVsControl)} | ${cmp(v.heldOutVsControl)} | ${v.verdict} |`,
      );
    }
    lines.push('');
  }
  for (const b of plan.batches) {
    const runs = cells[b.name] ?? [];
    if (runs.length > 0) lines.push(`#### ${b.name}`, '', runsTable(runs), '');
  }
  lines.push(
    ...mechanismSection(
      plan.batches.filter((b) => b.name !== rule.frozen).flatMap((b) => cells[b.name] ?? []),
    ),
  );
  return { markdown: `${lines.join('\n').trimEnd()}\n`, cells };
}

/**
 * The mechanism, reported and not judged, for a study whose runs log RAGEN-2's gradient split
 * (round 13 on): every learning run's precursor onsets against its fall, then the split. Studies
 * from before the split (round 12) get no section, so their reports read as they were written.
 */
export function mechanismSection(learning: readonly ReportRun[]): string[] {
  if (!learning.some((r) => r.split)) return [];
  return [
    '### The mechanism (reported, not judged)',
    '',
    'RAGEN’s precursors in every learning run, each onset’s first iteration and its lead before the fall (the rules: round 11’s report):',
    '',
    mechanismTable(learning),
    '',
    'RAGEN-2’s gradient split, on the MI iterations (every 10th): the first iteration at which the task loss’s gradient norm fell below the KL term’s and below the entropy term’s, with its lead before the iteration the run was trapped at:',
    '',
    gradientSplitTable(learning),
    '',
  ];
}
