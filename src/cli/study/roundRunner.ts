// Running a round from its plan (study/plan.ts), resumably: stage 1 (every cell on the tuning
// seeds), the nulls placed after it, the pick of stage 2's cells, stage 2, the pick of the
// confirmation cell, the confirmation runs (that cell and the frozen control on the fresh seeds),
// then the nulls and batches placed after them (a study's arms). It stops there: the
// confirmation is judged only by `round report`. Every run records the code's commit and the
// plan's hash (provenance.json); a pick, once made, is kept in pick.json (roundPick.ts).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Config } from '../../core/config.js';
import { runPath } from '../../core/files/sweepBundle.js';
import { verdictOfRows } from '../../core/metrics/detector.js';
import type { CliIo } from '../command.js';
import { runState, runSweep, type SweepRun } from '../sweepRunner.js';
import { baseLookup, resolveTrainConfig } from '../trainConfig.js';
import { finishedRuns } from './calibrate.js';
import type { LoadedPlan, PlanBatch, PlanCell } from './plan.js';
import {
  type CellScore,
  CONFIRM_FROZEN,
  CONFIRM_VANILLA,
  type PickRecord,
  rankCells,
  readPick,
  scoresOf,
  writePick,
} from './roundPick.js';

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

/**
 * The conditions a batch may run under, each read from the round's stored runs:
 * stage1-rose-beyond-frozen (round 10's study arms): some stage-1 cell rose beyond the noise
 * (rise above z standard errors) in every one of its tuning runs while no frozen null run did.
 */
export const BATCH_CONDITIONS: Readonly<
  Record<NonNullable<PlanBatch['onlyIf']>, (lp: LoadedPlan) => Promise<boolean>>
> = {
  'stage1-rose-beyond-frozen': async (lp) => {
    const z = lp.plan.trapRule.z;
    const rose = async (cell: string) =>
      (await finishedRuns(join(lp.dir, cell), lp.dir)).map((r) => verdictOfRows(r.config, r.rows).riseZ ?? 0);
    const frozen = lp.plan.nulls.filter((n) => n.kind === 'frozen');
    for (const n of frozen) if ((await rose(n.name)).some((x) => x > z)) return false;
    for (const c of lp.plan.cells) {
      const zs = await rose(c.name);
      if (zs.length >= (lp.plan.seeds?.tuning.length ?? 1) && zs.every((x) => x > z)) return true;
    }
    return false;
  },
};

/** The runs of a batch (its algorithms × seeds), layered over the picked cell when `onPick`. */
async function batchRuns(
  lp: LoadedPlan,
  b: PlanBatch,
  chosen: PlanCell | null,
  opts: RoundOptions,
): Promise<SweepRun[]> {
  if (b.onPick && !chosen) return [];
  if (b.onlyIf && !(await BATCH_CONDITIONS[b.onlyIf](lp))) return [];
  const algos = b.algo === undefined ? [chosen?.algo ?? ''] : typeof b.algo === 'string' ? [b.algo] : b.algo;
  const runs: SweepRun[] = [];
  for (const algo of algos) {
    const cell: PlanCell = {
      name: b.name,
      algo,
      flags: b.onPick && chosen ? { ...chosen.flags, ...b.flags } : b.flags,
      reason: b.reason,
    };
    runs.push(...(await cellRuns(lp, cell, b.seeds, opts)));
  }
  return runs;
}

/** One step of the round's queue, in the order the runner takes them. */
interface Step {
  batch: string;
  cell: string;
  runs: () => Promise<SweepRun[]>;
}

/**
 * The queue as far as `pick` lets it be known: what runs first, stage 1, what runs after it,
 * stage 2 and the confirmation (once picked), then what runs after the confirmation.
 */
function queue(lp: LoadedPlan, pick: PickRecord, opts: RoundOptions): Step[] {
  const { plan } = lp;
  const cellNamed = (name: string) => plan.cells.find((c) => c.name === name) as PlanCell;
  const chosen = pick.chosen ? cellNamed(pick.chosen) : null;
  const placed = (when: 'start' | 'stage1' | 'confirmation'): Step[] => [
    ...plan.nulls
      .filter((n) => n.after === when)
      .map((n) => ({
        batch: `null (after ${when})`,
        cell: n.name,
        runs: () => cellRuns(lp, n, n.seeds, opts),
      })),
    ...plan.batches
      .filter((b) => b.after === when)
      .map((b) => ({
        batch: `batch (after ${when})`,
        cell: b.name,
        runs: () => batchRuns(lp, b, chosen, opts),
      })),
  ];
  const steps: Step[] = [...placed('start')];
  const seeds = plan.seeds;
  if (seeds) {
    for (const c of plan.cells)
      steps.push({ batch: 'stage1', cell: c.name, runs: () => cellRuns(lp, c, seeds.tuning, opts) });
  }
  steps.push(...placed('stage1'));
  if (seeds) {
    for (const name of pick.stage2Cells ?? [])
      steps.push({
        batch: 'stage2',
        cell: name,
        runs: () => cellRuns(lp, cellNamed(name), seeds.stage2, opts),
      });
  }
  if (seeds && chosen && plan.confirmation) {
    const frozen = plan.confirmation.frozen;
    steps.push({
      batch: 'confirmation',
      cell: CONFIRM_VANILLA,
      runs: () => cellRuns(lp, chosen, seeds.confirmation, opts, CONFIRM_VANILLA),
    });
    steps.push({
      batch: 'confirmation',
      cell: CONFIRM_FROZEN,
      runs: () => cellRuns(lp, frozen, seeds.confirmation, opts, CONFIRM_FROZEN),
    });
  }
  if (!plan.pick || chosen) steps.push(...placed('confirmation'));
  return steps;
}

/** Runs the steps of `batch` as one sweep (cells interleaved seed by seed). */
async function runSteps(
  lp: LoadedPlan,
  name: string,
  steps: readonly Step[],
  commit: string,
  opts: RoundOptions,
  io: CliIo,
): Promise<void> {
  if (steps.length === 0) return;
  const lists = await Promise.all(steps.map((st) => st.runs()));
  await runBatch(lp, { name, runs: bySeed(lists) }, commit, opts, io);
}

/** Runs the plan as far as its queue goes; returns the pick record. */
export async function runRound(lp: LoadedPlan, opts: RoundOptions, io: CliIo): Promise<PickRecord> {
  const commit = checkedCommit(lp, opts.codeRoot);
  const { plan } = lp;
  io.stderr.write(`round ${plan.round}: code at ${commit.slice(0, 12)}, plan ${lp.hash.slice(0, 12)}\n`);
  const pick = await readPick(lp);
  const run = async (batch: string) => {
    for (const st of queue(lp, pick, opts).filter((x) => x.batch === batch))
      await runSteps(lp, st.cell, [st], commit, opts, io);
  };
  await run('null (after start)');
  await run('batch (after start)');
  const stage1 = queue(lp, pick, opts).filter((x) => x.batch === 'stage1');
  await runSteps(lp, 'stage1', stage1, commit, opts, io);
  await run('null (after stage1)');
  await run('batch (after stage1)');
  if (plan.seeds && plan.pick) {
    // The pick of stage 2's cells, made once.
    if (!pick.stage2Cells) {
      pick.stage1 = rankCells(
        await scoresOf(
          lp,
          plan.cells.map((c) => c.name),
          plan.seeds.tuning,
        ),
        plan.pick.by,
      );
      pick.stage2Cells = pick.stage1.slice(0, plan.pick.stage2Cells).map((sc) => sc.cell);
      await writePick(lp, pick);
    }
    await runSteps(
      lp,
      'stage2',
      queue(lp, pick, opts).filter((x) => x.batch === 'stage2'),
      commit,
      opts,
      io,
    );
    // The confirmation cell, picked once over the tuning and stage-2 seeds.
    if (!pick.chosen) {
      const seeds = [...plan.seeds.tuning, ...plan.seeds.stage2];
      pick.stage2 = rankCells(await scoresOf(lp, pick.stage2Cells, seeds), plan.pick.by);
      pick.chosen = (pick.stage2[0] as CellScore).cell;
      await writePick(lp, pick);
    }
    io.stderr.write(`round ${plan.round}: the pick rule chose ${pick.chosen}\n`);
    await runSteps(
      lp,
      'confirmation',
      queue(lp, pick, opts).filter((x) => x.batch === 'confirmation'),
      commit,
      opts,
      io,
    );
  }
  await run('null (after confirmation)');
  await run('batch (after confirmation)');
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
  const out = [];
  for (const st of queue(lp, await readPick(lp), opts)) {
    const runs = await st.runs();
    let done = 0;
    for (const run of runs) if ((await runState(run)) === 'done') done++;
    out.push({ batch: st.batch, cell: st.cell, done, planned: runs.length });
  }
  return out;
}
