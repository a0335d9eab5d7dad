// A round's report from its plan and its stored runs, nothing rerun: the plan as pre-registered,
// every run's verdict, the cells against the pick rule (pick.json), the nulls against their pass
// rules, the confirmation against its thresholds (judged only once all its runs are in), and
// RAGEN's mechanism in every run — each precursor's onset against the fall, and how often each
// fired in the nulls. Written to <round>/report.{md,json} and into the plan's docs section.
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectRun } from '../../core/metrics/detector.js';
import { type Mechanism, mechanismOf, ONSET_RULES, ONSETS } from '../../core/metrics/mechanism.js';
import { type RunVerdict, VERDICT_LABELS } from '../../core/metrics/verdict.js';
import { STUDY_ARMS } from '../../core/rl/studyArms.js';
import { mean, wilsonInterval } from '../../core/stats.js';
import { runArmsStudy, STUDY_DIRS, STUDY_SEEDS } from './armsStudy.js';
import { type CalRun, finishedRuns } from './calibrate.js';
import type { LoadedPlan } from './plan.js';
import { judgeRun, type RoundRun } from './round.js';
import { CONFIRM_FROZEN, CONFIRM_VANILLA, type PickRecord } from './roundPick.js';

/** One run as the report reads it. */
export interface ReportRun extends RoundRun {
  verdict: RunVerdict;
  mechanism: Mechanism;
  commit: string | null;
  planHash: string | null;
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

async function cellRunsOf(lp: LoadedPlan, cell: string): Promise<ReportRun[]> {
  const runs: CalRun[] = (await finishedRuns(join(lp.dir, cell), lp.dir)).sort(
    (a, b) => a.config.seed - b.config.seed,
  );
  const out: ReportRun[] = [];
  for (const run of runs) {
    const prov = await readJson<{ commit?: string; planHash?: string }>(join(run.dir, 'provenance.json'));
    // One detector judges the run for both the round's table and its verdict.
    const d = detectRun(run.config, run.rows);
    out.push({
      ...judgeRun(cell, run, d),
      verdict: d.summary().verdict as RunVerdict,
      mechanism: mechanismOf(run.rows),
      commit: prov?.commit ?? null,
      planHash: prov?.planHash ?? null,
    });
  }
  return out;
}

const f2 = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x.toFixed(2) : '–');
const f1 = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x.toFixed(1) : '–');
const pm = (x?: number, se?: number) => `${f2(x)} ± ${f2(se)}`;
const kOf = (k: number, n: number) => {
  const [lo, hi] = wilsonInterval(k, n);
  return n > 0 ? `${k} of ${n} (95% interval ${f2(lo)}–${f2(hi)})` : '0 of 0';
};

function runsTable(runs: readonly ReportRun[]): string {
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

function cellLine(name: string, runs: readonly ReportRun[], planned: number): string {
  const count = (v: RunVerdict['verdict']) => runs.filter((r) => r.verdict.verdict === v).length;
  return `| ${name} | ${runs.length} of ${planned} | ${kOf(count('trapped'), runs.length)} | ${count('collapsed')} | ${count('held')} | ${f2(mean(runs.map((r) => r.peak - r.final)))} |`;
}

function mechanismTable(runs: readonly ReportRun[]): string {
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

/** Each onset: how often it fired in each null, and in the trapped runs before their fall. */
function falseAlarmTable(
  nulls: readonly { name: string; runs: readonly ReportRun[] }[],
  trapped: readonly ReportRun[],
): string {
  const head = `| onset | rule | ${nulls.map((n) => `fired in ${n.name}`).join(' | ')} | before the fall in trapped runs | mean lead |\n|---|---|${nulls.map(() => '---|').join('')}---|---|`;
  const rows = ONSETS.map((o) => {
    const leads = trapped
      .filter(
        (r) =>
          r.mechanism.fall !== null &&
          (r.mechanism.onsets[o] ?? Number.POSITIVE_INFINITY) <= (r.mechanism.fall as number),
      )
      .map((r) => (r.mechanism.fall as number) - (r.mechanism.onsets[o] as number));
    // A frozen policy takes no gradient step: its gradient norm cannot spike, so it measures nothing.
    const fired = nulls.map((n) =>
      o === 'gradNormSpike' && n.name.includes('frozen')
        ? 'not measurable (no update)'
        : `${n.runs.filter((r) => r.mechanism.onsets[o] !== undefined).length} of ${n.runs.length}`,
    );
    return `| ${o} | ${ONSET_RULES[o]} | ${fired.join(' | ')} | ${leads.length} of ${trapped.length} | ${leads.length > 0 ? f1(mean(leads)) : '–'} |`;
  });
  return [head, ...rows].join('\n');
}

/** What every section of the report reads: the plan, its pick record and the judged runs. */
interface ReportInput {
  lp: LoadedPlan;
  seeds: NonNullable<LoadedPlan['plan']['seeds']>;
  confirmation: NonNullable<LoadedPlan['plan']['confirmation']>;
  pick: PickRecord;
  cells: Record<string, ReportRun[]>;
}

function headSection({ lp, cells }: ReportInput): string[] {
  const all = Object.values(cells).flat();
  const commits = [...new Set(all.map((r) => r.commit ?? 'unrecorded'))];
  const hashes = [...new Set(all.map((r) => r.planHash ?? 'unrecorded'))];
  return [
    `### ${lp.plan.title}: results`,
    '',
    `Generated by \`npm run starpo -- round report\` from the plan (hash ${lp.hash.slice(0, 12)}) and its stored runs; every run judged by the pre-registered rule at z = ${lp.plan.trapRule.z}. ${all.length} finished runs; code commit(s) ${commits.map((c) => c.slice(0, 7)).join(', ')}; plan hash(es) recorded in the runs ${hashes.map((h) => h.slice(0, 12)).join(', ')}.`,
    '',
  ];
}

function cellsSection({ lp, seeds, pick, cells }: ReportInput): string[] {
  const stage2 = new Set(pick.stage2Cells ?? []);
  return [
    '#### The cells',
    '',
    '| cell | runs | trapped | collapsed without a rise | held | mean peak − last 10 |\n|---|---|---|---|---|---|',
    ...lp.plan.cells.map((c) =>
      cellLine(
        c.name,
        cells[c.name] ?? [],
        seeds.tuning.length + (stage2.has(c.name) ? seeds.stage2.length : 0),
      ),
    ),
    '',
    pick.stage2Cells
      ? `The pick rule chose ${pick.stage2Cells.join(' and ')} for stage 2${pick.chosen ? `, and **${pick.chosen}** for the confirmation` : ''} (pick.json, made by the runner as the runs finished).`
      : 'Nothing picked yet: the runner picks once stage 1 and the nulls placed after it are done.',
    '',
  ];
}

function nullsSection({ lp, cells }: ReportInput): string[] {
  const lines = lp.plan.nulls.map((n) => {
    const runs = cells[n.name] ?? [];
    const flagged = runs.filter((r) => r.verdict.verdict === 'trapped').length;
    const state =
      runs.length < n.seeds.length
        ? `${runs.length} of ${n.seeds.length} runs finished, ${flagged} flagged so far: not judged yet`
        : `**${flagged <= n.maxFlagged ? 'passes' : 'fails'}** (flagged ${kOf(flagged, runs.length)}; at most ${n.maxFlagged} allowed)`;
    return `- **${n.name}** (${n.kind}; ${n.algo} ${JSON.stringify(n.flags)}): ${state}.`;
  });
  return ['#### The nulls', '', ...lines, ''];
}

function confirmationSection({ seeds, confirmation, pick, cells }: ReportInput): string[] {
  const nConf = seeds.confirmation.length;
  const cv = cells[CONFIRM_VANILLA] ?? [];
  const cf = cells[CONFIRM_FROZEN] ?? [];
  const head = [`#### The confirmation (seeds ${seeds.confirmation.join(', ')})`, ''];
  if (cv.length < nConf || cf.length < nConf)
    return [
      ...head,
      `${cv.length} of ${nConf} runs of the picked cell and ${cf.length} of ${nConf} frozen runs have finished: the confirmation is judged once, when all are in.`,
      '',
    ];
  const kv = cv.filter((r) => r.verdict.verdict === 'trapped').length;
  const kf = cf.filter((r) => r.verdict.verdict === 'trapped').length;
  const ok = kv >= confirmation.minTrapped && kf <= confirmation.frozen.maxFlagged;
  return [
    ...head,
    `${pick.chosen ?? 'the picked cell'} trapped ${kOf(kv, nConf)} (needed ≥ ${confirmation.minTrapped}); frozen flagged ${kOf(kf, nConf)} (allowed ≤ ${confirmation.frozen.maxFlagged}): **${ok ? 'confirmed' : 'not confirmed'}**.`,
    '',
  ];
}

function mechanismSection({ lp, cells }: ReportInput): string[] {
  const all = Object.values(cells).flat();
  const trapped = all.filter((r) => r.verdict.verdict === 'trapped' && !r.cell.startsWith('null-'));
  const nullGroups = [
    ...lp.plan.nulls.map((n) => ({ name: n.name, runs: cells[n.name] ?? [] })),
    { name: CONFIRM_FROZEN, runs: cells[CONFIRM_FROZEN] ?? [] },
  ];
  return [
    '#### The mechanism in every run',
    '',
    'Onset iterations, and their lead before the fall (success back at its start). The rules:',
    '',
    ...ONSETS.map((o) => `- **${o}**: ${ONSET_RULES[o]}.`),
    '',
    mechanismTable(all.filter((r) => !r.cell.includes('frozen'))),
    '',
    falseAlarmTable(nullGroups, trapped),
    '',
  ];
}

function everyRunSection({ cells }: ReportInput): string[] {
  const out = ['#### Every run', ''];
  for (const [name, runs] of Object.entries(cells))
    if (runs.length > 0) out.push(`**${name}**`, '', runsTable(runs), '');
  return out;
}

/** The round's report as Markdown, and the judged runs by cell. */
export async function roundReport(
  lp: LoadedPlan,
): Promise<{ markdown: string; cells: Record<string, ReportRun[]> }> {
  const { plan } = lp;
  const { seeds, confirmation } = plan;
  if (!seeds || !confirmation || plan.cells.length === 0)
    throw new Error(`${lp.path}: the round report needs cells, seeds and a confirmation`);
  const pick = (await readJson<PickRecord>(join(lp.dir, 'pick.json'))) ?? { rule: plan.pick?.rule ?? '' };
  const cells: Record<string, ReportRun[]> = {};
  const names = [
    ...plan.cells.map((c) => c.name),
    ...plan.nulls.map((n) => n.name),
    CONFIRM_VANILLA,
    CONFIRM_FROZEN,
    ...plan.batches.map((b) => b.name),
  ];
  for (const name of names) cells[name] = await cellRunsOf(lp, name);
  const input: ReportInput = { lp, seeds, confirmation, pick, cells };
  const sections = [
    headSection,
    cellsSection,
    nullsSection,
    confirmationSection,
    mechanismSection,
    everyRunSection,
  ];
  return {
    markdown: `${sections
      .flatMap((f) => f(input))
      .join('\n')
      .trimEnd()}\n`,
    cells,
  };
}

/** The markers around a round's generated section in its docs file. */
export function roundMarkers(round: string): { start: string; end: string } {
  return {
    start: `<!-- round ${round} results: generated by \`npm run starpo -- round report\`; do not edit below -->`,
    end: `<!-- end of round ${round} results -->`,
  };
}

/** `text` with the section between `start` and `end` replaced by `body` (appended, markers and all, when absent). */
export function spliceSection(text: string, start: string, end: string, body: string): string {
  const block = `${start}\n\n${body.trimEnd()}\n\n${end}`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) return `${text.trimEnd()}\n\n${block}\n`;
  return `${text.slice(0, a)}${block}${text.slice(b + end.length)}`;
}

/**
 * The report of a plan in the format rounds 9 and 10 and the Bandit re-measurement were reported
 * with: every generated section of docs/echo-trap.md (5–11) regenerated from all three rounds'
 * stored runs, exactly as `sweep --study echo-trap --report-only` writes them.
 */
async function echoTrapV1Report(docs: string | null): Promise<string> {
  const quiet = { write: () => true } as unknown as NodeJS.WritableStream;
  return runArmsStudy(
    {
      envs: Object.keys(STUDY_DIRS),
      arms: [...STUDY_ARMS],
      seeds: STUDY_SEEDS,
      docs: docs ?? join(tmpdir(), `echo-trap-report-${process.pid}.md`),
      jobs: 1,
      overrides: {},
      reportOnly: true,
      baseLayer: async () => null,
    },
    { stdin: process.stdin, stdout: quiet, stderr: quiet },
  );
}

/** Writes report.{md,json} beside the plan and the section into `docs` (null: none); returns the Markdown. */
export async function writeRoundReport(lp: LoadedPlan, docs: string | null): Promise<string> {
  if (lp.plan.report.format === 'echo-trap-v1') return echoTrapV1Report(docs);
  const { markdown, cells } = await roundReport(lp);
  await writeFile(join(lp.dir, 'report.md'), markdown);
  await writeFile(join(lp.dir, 'report.json'), `${JSON.stringify(cells, null, 2)}\n`);
  if (docs !== null) {
    const { start, end } = roundMarkers(lp.plan.round);
    const text = await readFile(docs, 'utf8').catch(() => `# ${lp.plan.title}\n`);
    await writeFile(docs, spliceSection(text, start, end, markdown));
  }
  return markdown;
}
