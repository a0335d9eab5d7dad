// Running a round from its plan (study/plan.ts), resumably: stage 1 (every cell on the tuning
// seeds), the nulls placed after it, the pick of stage 2's cells, stage 2, the pick of the
// confirmation cell, the confirmation runs (that cell and the frozen control on the fresh seeds),
// then the nulls placed after them. It stops there: the confirmation is judged only by
// `round report`. Every run records the code's commit and the plan's hash (provenance.json); a
// pick, once made, is kept in pick.json and never made again.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Config } from '../../core/config.js';
import { runPath } from '../../core/files/sweepBundle.js';
import { verdictOfRows } from '../../core/metrics/detector.js';
import type { Verdict } from '../../core/metrics/verdict.js';
import { mean } from '../../core/stats.js';
import type { CliIo } from '../command.js';
import { baseLookup, resolveTrainConfig } from '../commands/train.js';
import { runState, runSweep, type SweepRun } from '../sweepRunner.js';
import { finishedRuns } from './calibrate.js';
import type { LoadedPlan, Plan, PlanCell } from './plan.js';

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

/**
 * The pick rule: the larger share of trapped runs; then the smaller share that collapsed without
 * a rise (a cell that rises before it falls beats one that breaks at once); then the larger mean
 * peak − last 10; then the name.
 */
export function rankCells(scores: readonly CellScore[]): CellScore[] {
  const share = (k: number, n: number) => (n > 0 ? k / n : 0);
  const drop = (s: CellScore) => (Number.isFinite(s.meanDrop) ? s.meanDrop : Number.NEGATIVE_INFINITY);
  return [...scores].sort(
    (a, b) =>
      share(b.trapped, b.runs) - share(a.trapped, a.runs) ||
      share(a.collapsed, a.runs) - share(b.collapsed, b.runs) ||
      drop(b) - drop(a) ||
      a.cell.localeCompare(b.cell),
  );
}

/** What a round runner needs besides the plan. */
export interface RoundOptions {
  jobs: number;
  /** The code's checkout: it must be clean, and its commit is recorded. */
  codeRoot: string;
  base?: string;
  models?: string;
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();
}

/**
 * The code's commit, refusing a tree with changes (the round's own results folder aside, when it
 * lies inside the checkout) and a plan file that is not committed.
 */
export function checkedCommit(lp: LoadedPlan, codeRoot: string): string {
  const inside = relative(codeRoot, lp.dir);
  const pathspec = inside.startsWith('..') || inside === '' ? [] : ['--', '.', `:(exclude)${inside}`];
  const dirty = git(codeRoot, ['status', '--porcelain', ...pathspec]);
  if (dirty !== '')
    throw new Error(
      `the code's tree has uncommitted changes; commit them or run from a clean worktree:\n${dirty}`,
    );
  const planState = git(lp.dir, ['status', '--porcelain', '--', lp.path.split('/').pop() as string]);
  if (planState !== '') throw new Error(`${lp.path} is not committed: a round runs from a committed plan`);
  return git(codeRoot, ['rev-parse', 'HEAD']);
}

/** The runs of one cell on `seeds`, configs resolved as `train` resolves its flags. */
export async function cellRuns(
  lp: LoadedPlan,
  cell: PlanCell,
  seeds: readonly number[],
  opts: RoundOptions,
  name = cell.name,
): Promise<SweepRun[]> {
  const runs: SweepRun[] = [];
  for (const seed of seeds) {
    const flags = {
      ...stringFlags(lp.plan.shape),
      ...stringFlags(cell.flags),
      algo: cell.algo,
      seed: String(seed),
    };
    const config: Config = await resolveTrainConfig(flags, baseLookup(opts.base, opts.models));
    runs.push({
      preset: 'custom',
      algo: config.algorithm,
      seed,
      dir: join(lp.dir, name, runPath('custom', config.algorithm, seed)),
      config,
    });
  }
  return runs;
}

function stringFlags(
  flags: Readonly<Record<string, string | number | boolean>>,
): Record<string, string | boolean> {
  return Object.fromEntries(
    Object.entries(flags).map(([k, v]) => [k, typeof v === 'boolean' ? v : String(v)]),
  );
}

/** The cells' verdicts from their finished runs (seeds `seeds` only). */
async function scoresOf(
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

async function readPick(lp: LoadedPlan): Promise<PickRecord> {
  try {
    return JSON.parse(await readFile(join(lp.dir, 'pick.json'), 'utf8')) as PickRecord;
  } catch {
    return { rule: lp.plan.pick.rule };
  }
}

async function writePick(lp: LoadedPlan, pick: PickRecord): Promise<void> {
  await writeFile(join(lp.dir, 'pick.json'), `${JSON.stringify(pick, null, 2)}\n`);
}

/** One step of the queue: a name and the runs it makes. */
interface Batch {
  name: string;
  runs: SweepRun[];
}

/** Runs a batch (finished runs skipped), each run first recording the commit and the plan's hash. */
async function runBatch(
  lp: LoadedPlan,
  batch: Batch,
  commit: string,
  opts: RoundOptions,
  io: CliIo,
): Promise<void> {
  for (const run of batch.runs) {
    if ((await runState(run)) === 'done') continue;
    await mkdir(run.dir, { recursive: true });
    const provenance = { commit, plan: relative(run.dir, lp.path), planHash: lp.hash, round: lp.plan.round };
    await writeFile(join(run.dir, 'provenance.json'), `${JSON.stringify(provenance, null, 2)}\n`);
  }
  io.stderr.write(`round ${lp.plan.round}: ${batch.name}\n`);
  const out = join(lp.dir, 'stages', batch.name);
  await mkdir(out, { recursive: true });
  await runSweep(batch.runs, { out, jobs: opts.jobs, base: opts.base, models: opts.models }, io);
}

/** Interleaves cells' runs seed by seed, so that early results cover every cell. */
function bySeed(lists: readonly SweepRun[][]): SweepRun[] {
  const out: SweepRun[] = [];
  for (let i = 0; i < Math.max(0, ...lists.map((l) => l.length)); i++)
    for (const l of lists) if (l[i]) out.push(l[i] as SweepRun);
  return out;
}

/** Runs the plan as far as its queue goes; returns the pick record. */
export async function runRound(lp: LoadedPlan, opts: RoundOptions, io: CliIo): Promise<PickRecord> {
  const commit = checkedCommit(lp, opts.codeRoot);
  const { plan } = lp;
  io.stderr.write(`round ${plan.round}: code at ${commit.slice(0, 12)}, plan ${lp.hash.slice(0, 12)}\n`);
  const nullsAfter = async (when: 'stage1' | 'confirmation') => {
    for (const n of plan.nulls.filter((x) => x.after === when))
      await runBatch(lp, { name: n.name, runs: await cellRuns(lp, n, n.seeds, opts) }, commit, opts, io);
  };

  // Stage 1: every cell on the tuning seeds.
  const stage1 = await Promise.all(plan.cells.map((c) => cellRuns(lp, c, plan.seeds.tuning, opts)));
  await runBatch(lp, { name: 'stage1', runs: bySeed(stage1) }, commit, opts, io);
  await nullsAfter('stage1');

  // The pick of stage 2's cells, made once.
  const pick = await readPick(lp);
  if (!pick.stage2Cells) {
    pick.stage1 = rankCells(
      await scoresOf(
        lp,
        plan.cells.map((c) => c.name),
        plan.seeds.tuning,
      ),
    );
    pick.stage2Cells = pick.stage1.slice(0, plan.pick.stage2Cells).map((s) => s.cell);
    await writePick(lp, pick);
  }
  const cellNamed = (name: string) => plan.cells.find((c) => c.name === name) as PlanCell;
  const stage2 = await Promise.all(
    pick.stage2Cells.map((n) => cellRuns(lp, cellNamed(n), plan.seeds.stage2, opts)),
  );
  await runBatch(lp, { name: 'stage2', runs: bySeed(stage2) }, commit, opts, io);

  // The confirmation cell, picked once over the tuning and stage-2 seeds.
  if (!pick.chosen) {
    pick.stage2 = rankCells(
      await scoresOf(lp, pick.stage2Cells, [...plan.seeds.tuning, ...plan.seeds.stage2]),
    );
    pick.chosen = (pick.stage2[0] as CellScore).cell;
    await writePick(lp, pick);
  }
  io.stderr.write(`round ${plan.round}: the pick rule chose ${pick.chosen}\n`);
  const vanilla = await cellRuns(lp, cellNamed(pick.chosen), plan.seeds.confirmation, opts, CONFIRM_VANILLA);
  const frozen = await cellRuns(lp, plan.confirmation.frozen, plan.seeds.confirmation, opts, CONFIRM_FROZEN);
  await runBatch(lp, { name: 'confirmation', runs: bySeed([vanilla, frozen]) }, commit, opts, io);
  await nullsAfter('confirmation');
  io.stderr.write(
    `round ${plan.round}: every planned run is done; the confirmation is judged by \`round report\`, not here\n`,
  );
  return pick;
}

/** Every planned run with its state, for `round status` (stage 2 and later once picked). */
export async function roundStatus(
  lp: LoadedPlan,
  opts: RoundOptions,
): Promise<{ batch: string; cell: string; done: number; planned: number }[]> {
  const { plan } = lp;
  const pick = await readPick(lp);
  const rows: { batch: string; cell: string; runs: SweepRun[] }[] = [];
  for (const c of plan.cells)
    rows.push({ batch: 'stage1', cell: c.name, runs: await cellRuns(lp, c, plan.seeds.tuning, opts) });
  for (const n of plan.nulls)
    rows.push({ batch: `null (after ${n.after})`, cell: n.name, runs: await cellRuns(lp, n, n.seeds, opts) });
  for (const name of pick.stage2Cells ?? []) {
    const c = plan.cells.find((x) => x.name === name) as PlanCell;
    rows.push({ batch: 'stage2', cell: name, runs: await cellRuns(lp, c, plan.seeds.stage2, opts) });
  }
  if (pick.chosen) {
    const c = plan.cells.find((x) => x.name === pick.chosen) as PlanCell;
    rows.push({
      batch: 'confirmation',
      cell: CONFIRM_VANILLA,
      runs: await cellRuns(lp, c, plan.seeds.confirmation, opts, CONFIRM_VANILLA),
    });
    rows.push({
      batch: 'confirmation',
      cell: CONFIRM_FROZEN,
      runs: await cellRuns(lp, plan.confirmation.frozen, plan.seeds.confirmation, opts, CONFIRM_FROZEN),
    });
  }
  const out = [];
  for (const r of rows) {
    let done = 0;
    for (const run of r.runs) if ((await runState(run)) === 'done') done++;
    out.push({ batch: r.batch, cell: r.cell, done, planned: r.runs.length });
  }
  return out;
}

export type { Plan };
