// A round's pick rule and its record: each cell's runs counted by verdict, the rankings a plan
// may name (PICK_RULES), and pick.json, where the runner writes each choice once and never makes
// it again.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { verdictOfRows } from '../../core/metrics/detector.js';
import type { Verdict } from '../../core/metrics/verdict.js';
import { mean } from '../../core/stats.js';
import { finishedRuns } from './calibrate.js';
import type { LoadedPlan, Plan } from './plan.js';

/** The confirmation's two cells, named as every round names them. */
export const CONFIRM_VANILLA = 'confirm-vanilla';
export const CONFIRM_FROZEN = 'confirm-frozen';

/** What pick.json holds: the rule's rankings and its choices, each written once. */
export interface PickRecord {
  rule: string;
  stage1?: CellScore[];
  stage2Cells?: string[];
  stage2?: CellScore[];
  chosen?: string;
}

/** A cell's runs counted by verdict, for the pick rule. */
export interface CellScore {
  cell: string;
  runs: number;
  trapped: number;
  collapsed: number;
  held: number;
  tooShort: number;
  /** Mean of peak − last 10 over the judged runs. */
  meanDrop: number;
}

export function cellScore(
  cell: string,
  verdicts: readonly { verdict: Verdict; peak?: number; last?: number }[],
): CellScore {
  const count = (v: Verdict) => verdicts.filter((x) => x.verdict === v).length;
  const judged = verdicts.filter((x) => x.peak !== undefined && x.last !== undefined);
  return {
    cell,
    runs: verdicts.length,
    trapped: count('trapped'),
    collapsed: count('collapsed'),
    held: count('held'),
    tooShort: count('too-short'),
    meanDrop:
      judged.length > 0 ? mean(judged.map((x) => (x.peak as number) - (x.last as number))) : Number.NaN,
  };
}

const share = (k: number, n: number) => (n > 0 ? k / n : 0);
const drop = (s: CellScore) => (Number.isFinite(s.meanDrop) ? s.meanDrop : Number.NEGATIVE_INFINITY);

/**
 * The pick rules a plan may name, each a comparison of two cells' scores (better first):
 * - trapped-then-rise-first (round 11): the larger share of trapped runs; then the smaller share
 *   that collapsed without a rise (a cell that rises before it falls beats one that breaks at
 *   once); then the larger mean peak − last 10;
 * - trapped-then-drop (rounds 9 and 10): the larger share of trapped runs; then the larger mean
 *   peak − last 10.
 * Ties after that go by name.
 */
export const PICK_RULES: Readonly<Record<PickRule, (a: CellScore, b: CellScore) => number>> = {
  'trapped-then-rise-first': (a, b) =>
    share(b.trapped, b.runs) - share(a.trapped, a.runs) ||
    share(a.collapsed, a.runs) - share(b.collapsed, b.runs) ||
    drop(b) - drop(a),
  'trapped-then-drop': (a, b) => share(b.trapped, b.runs) - share(a.trapped, a.runs) || drop(b) - drop(a),
};

export type PickRule = NonNullable<Plan['pick']>['by'];

/** The cells ranked by `rule`, best first. */
export function rankCells(
  scores: readonly CellScore[],
  rule: PickRule = 'trapped-then-rise-first',
): CellScore[] {
  return [...scores].sort((a, b) => PICK_RULES[rule](a, b) || a.cell.localeCompare(b.cell));
}

/** The cells' verdicts from their finished runs (seeds `seeds` only). */
export async function scoresOf(
  lp: LoadedPlan,
  cells: readonly string[],
  seeds: readonly number[],
): Promise<CellScore[]> {
  const wanted = new Set(seeds);
  const out: CellScore[] = [];
  for (const cell of cells) {
    const runs = (await finishedRuns(join(lp.dir, cell), lp.dir)).filter((r) => wanted.has(r.config.seed));
    out.push(
      cellScore(
        cell,
        runs.map((r) => verdictOfRows(r.config, r.rows)),
      ),
    );
  }
  return out;
}

export async function readPick(lp: LoadedPlan): Promise<PickRecord> {
  try {
    return JSON.parse(await readFile(join(lp.dir, 'pick.json'), 'utf8')) as PickRecord;
  } catch {
    return { rule: lp.plan.pick?.rule ?? '' };
  }
}

export async function writePick(lp: LoadedPlan, pick: PickRecord): Promise<void> {
  await writeFile(join(lp.dir, 'pick.json'), `${JSON.stringify(pick, null, 2)}\n`);
}
