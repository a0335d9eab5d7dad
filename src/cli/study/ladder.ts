// A step-size ladder's report (round 13's stage 1, docs/echo-trap-round13.md): one algorithm at
// several learning rates on tuning seeds, and the pick rule pre-registered with it. A run "rose
// and held" when the pre-registered detector judges it held, its rise exceeds z standard errors,
// and its last 10 iterations keep at least half of its rise. The smaller step is the largest rung
// whose runs all rose and held; else the largest with all but one (said so); else the lowest rung
// (no learner that holds was found). `round report` writes this for a plan whose batches differ
// only in their lr (isLadder).
import { join } from 'node:path';
import { verdictOfRows } from '../../core/metrics/detector.js';
import type { RunVerdict } from '../../core/metrics/verdict.js';
import { finishedRuns } from './calibrate.js';
import type { LoadedPlan, Plan } from './plan.js';

/** A plan that is a ladder: no cells or study, one algorithm, batches that set only `lr`. */
export function isLadder(plan: Plan): boolean {
  const algos = new Set(plan.batches.map((b) => String(b.algo)));
  return (
    !plan.study &&
    plan.cells.length === 0 &&
    plan.batches.length >= 2 &&
    algos.size === 1 &&
    plan.batches.every((b) => Object.keys(b.flags).join() === 'lr')
  );
}

/** The rule's test of one run. */
export function roseAndHeld(v: RunVerdict): boolean {
  const { start = 0, peak = 0, last = 0 } = v;
  return v.verdict === 'held' && (v.riseZ ?? 0) > v.z && last >= start + (peak - start) / 2;
}

export interface RungRun {
  seed: number;
  verdict: RunVerdict;
  roseAndHeld: boolean;
}

export interface Rung {
  name: string;
  lr: number;
  runs: RungRun[];
}

/** What the rule picked, and by which of its clauses. */
export interface LadderPick {
  rung: string;
  lr: number;
  by: 'all held' | 'all but one held' | 'none held: the lowest rung';
}

/** The pre-registered pick over rungs that each ran `seeds` runs. */
export function pickRung(rungs: readonly Rung[], seeds: number): LadderPick {
  const byLr = [...rungs].sort((a, b) => b.lr - a.lr);
  const held = (r: Rung) => r.runs.filter((x) => x.roseAndHeld).length;
  const all = byLr.find((r) => held(r) === seeds);
  const allButOne = byLr.find((r) => held(r) === seeds - 1);
  const chosen = all ?? allButOne ?? (byLr[byLr.length - 1] as Rung);
  const by = all ? 'all held' : allButOne ? 'all but one held' : 'none held: the lowest rung';
  return { rung: chosen.name, lr: chosen.lr, by };
}

const f2 = (x: number | undefined) => (x ?? Number.NaN).toFixed(2);
const f1 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(1));

/** The ladder's rungs from the stored runs, its table and its pick. */
export async function ladderReport(lp: LoadedPlan): Promise<{ markdown: string; cells: unknown }> {
  const rungs: Rung[] = [];
  for (const b of lp.plan.batches) {
    const runs = (await finishedRuns(join(lp.dir, b.name), lp.dir)).filter((r) =>
      b.seeds.includes(r.config.seed),
    );
    rungs.push({
      name: b.name,
      lr: Number(b.flags.lr),
      runs: runs.map((r) => {
        const verdict = verdictOfRows(r.config, r.rows);
        return { seed: r.config.seed, verdict, roseAndHeld: roseAndHeld(verdict) };
      }),
    });
  }
  const seeds = Math.max(...lp.plan.batches.map((b) => b.seeds.length));
  const complete = rungs.every((r) => r.runs.length === seeds);
  const lines = [
    `## ${lp.plan.report.heading}`,
    '',
    `${rungs.reduce((n, r) => n + r.runs.length, 0)} of ${seeds * rungs.length} runs finished. Each run judged by the pre-registered detector (z = ${lp.plan.trapRule.z}); "rose and held": judged held, rise beyond ${lp.plan.trapRule.z} standard errors, and the last 10 at least halfway from the start to the peak.`,
    '',
    '| rung | lr | seed | verdict | start | peak | last 10 | rise z | fall z | rose and held |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rungs.flatMap((r) =>
      [...r.runs]
        .sort((a, b) => a.seed - b.seed)
        .map(
          (x) =>
            `| ${r.name} | ${r.lr} | ${x.seed} | ${x.verdict.verdict} | ${f2(x.verdict.start)} | ${f2(x.verdict.peak)} | ${f2(x.verdict.last)} | ${f1(x.verdict.riseZ)} | ${f1(x.verdict.fallZ)} | ${x.roseAndHeld ? 'yes' : 'no'} |`,
        ),
    ),
    '',
    ...rungs.map(
      (r) => `- ${r.name}: ${r.runs.filter((x) => x.roseAndHeld).length} of ${r.runs.length} rose and held.`,
    ),
    '',
  ];
  const pick = complete ? pickRung(rungs, seeds) : null;
  lines.push(
    pick
      ? `**The pick, by the rule:** ${pick.rung} (lr ${pick.lr}): ${pick.by}. Round 13's \`smaller-step\` arm runs at lr ${pick.lr}.`
      : '**No pick yet:** the rule picks once every rung has all its runs.',
  );
  return { markdown: `${lines.join('\n')}\n`, cells: { rungs, pick } };
}
