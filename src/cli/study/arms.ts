// The echo-trap study by arms (core/rl/studyArms.ts): its plan — every arm × seed on the confirmed
// preset's budget, one `train` run directory each under <out>/<env>/<arm>/seed-<s>, resumable —
// and its analysis, decided before the runs (docs/echo-trap.md "The study"): per arm against
// vanilla, Fisher's exact test (one-sided: fewer traps) on trap counts; seed-paired signed-rank
// tests of last-10-minus-start and of peak-minus-final; bootstrap intervals on peak, final and
// greedy held-out success; and every table with optimizer steps, samples per step, rollouts per
// iteration and time per iteration. Nothing here trains: `planArms` lists runs for the sweep
// runner, `armsMarkdown` reads judged runs.
import { join } from 'node:path';
import type { Config } from '../../core/config.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import { groupsToRollOut } from '../../core/rl/filter.js';
import { armConfig, STUDY_ARM_SPECS, type StudyArm } from '../../core/rl/studyArms.js';
import { Rng } from '../../core/rng.js';
import { bootstrapMean, fisherLess, mean, signedRank, wilsonInterval } from '../../core/stats.js';
import type { SweepRun } from '../sweepRunner.js';
import type { CalRun } from './calibrate.js';
import { judgeRun, type RoundRun } from './round.js';

/**
 * An arm's cell in a round directory: the confirmation's runs are vanilla's and frozen's, every
 * other arm is `study-<arm>` (laid out as `sweep` lays out a cell: custom/<algorithm>/seed-N).
 */
export function armCell(arm: StudyArm): string {
  return arm === 'vanilla' ? 'confirm-vanilla' : arm === 'frozen' ? 'confirm-frozen' : `study-${arm}`;
}

/** Every arm × seed of one env's round directory `out`, in a stable order (arms first, so a cell finishes together). */
export function planArms(
  vanilla: Config,
  arms: readonly StudyArm[],
  seeds: readonly number[],
  out: string,
): (SweepRun & { arm: StudyArm })[] {
  return arms.flatMap((arm) =>
    seeds.map((seed) => ({
      arm,
      preset: arm,
      algo: STUDY_ARM_SPECS[arm].algorithm,
      seed,
      config: { ...armConfig(vanilla, arm), seed },
      dir: join(out, armCell(arm), 'custom', STUDY_ARM_SPECS[arm].algorithm, `seed-${seed}`),
    })),
  );
}

/** One arm's runs, judged, with what each iteration cost. */
export interface ArmRuns {
  arm: StudyArm;
  runs: RoundRun[];
  config: Config;
  /** Mean optimizer steps and samples per step over the runs' iterations. */
  steps: number;
  samplesPerStep: number;
}

const meanKey = (rows: readonly MetricRow[], key: 'actor/optimizerSteps' | 'actor/samplesPerStep') =>
  mean(rows.map((r) => r[key]).filter((v): v is number => typeof v === 'number'));

/** Judges the stored runs of one arm. */
export function armRuns(arm: StudyArm, runs: readonly CalRun[]): ArmRuns {
  const judged = runs.map((r) => judgeRun(arm, r)).sort((a, b) => a.seed - b.seed);
  return {
    arm,
    runs: judged,
    config: (runs[0] as CalRun).config,
    steps: mean(runs.map((r) => meanKey(r.rows, 'actor/optimizerSteps'))),
    samplesPerStep: mean(runs.map((r) => meanKey(r.rows, 'actor/samplesPerStep'))),
  };
}

/** An arm against vanilla: trap counts, paired differences and their tests. */
export interface ArmComparison {
  arm: StudyArm;
  trapped: number;
  runs: number;
  fisherP: number | null;
  /** Seeds both arms ran. */
  paired: number;
  /** Signed-rank on (arm − vanilla) of last-10 − start: small pGreater = the arm ends higher. */
  finalGain: { mean: number; pGreater: number } | null;
  /** Signed-rank on (arm − vanilla) of peak − last-10: small pLess = the arm gives back less. */
  giveBack: { mean: number; pLess: number } | null;
}

export function compareToVanilla(arm: ArmRuns, vanilla: ArmRuns): ArmComparison {
  const trapped = arm.runs.filter((r) => r.trapped).length;
  const vTrapped = vanilla.runs.filter((r) => r.trapped).length;
  const bySeed = new Map(vanilla.runs.map((r) => [r.seed, r]));
  const pairs = arm.runs.flatMap((r) => {
    const v = bySeed.get(r.seed);
    return v ? [[r, v] as const] : [];
  });
  const self = arm.arm === 'vanilla';
  const gain = pairs.map(([a, v]) => a.final - a.start - (v.final - v.start));
  const back = pairs.map(([a, v]) => a.peak - a.final - (v.peak - v.final));
  return {
    arm: arm.arm,
    trapped,
    runs: arm.runs.length,
    fisherP: self ? null : fisherLess(trapped, arm.runs.length, vTrapped, vanilla.runs.length),
    paired: pairs.length,
    finalGain: self || pairs.length === 0 ? null : { mean: mean(gain), pGreater: signedRank(gain).pGreater },
    giveBack: self || pairs.length === 0 ? null : { mean: mean(back), pLess: signedRank(back).pLess },
  };
}

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const p3 = (x: number | null | undefined) =>
  x === null || x === undefined ? '–' : x < 0.001 ? '< 0.001' : x.toFixed(3);
const ci = ([lo, hi]: [number, number]) => `${f2(lo)}–${f2(hi)}`;

/** The study's main table: every arm against vanilla, with its cost. Bootstrap seeded by arm. */
export function armsMarkdown(arms: readonly ArmRuns[]): string {
  const vanilla = arms.find((a) => a.arm === 'vanilla');
  if (!vanilla) return 'No vanilla runs yet: the study compares every arm against them.\n';
  const rows = arms.map((a) => {
    const c = compareToVanilla(a, vanilla);
    const rng = new Rng(a.runs.length).fork(a.arm);
    const boot = (f: (r: RoundRun) => number) => ci(bootstrapMean(a.runs.map(f), rng));
    const rolled =
      groupsToRollOut(a.config.groups, a.config.filterMode, a.config.filterRatio) * a.config.groupSize;
    const secs = mean(a.runs.map((r) => r.secondsPerIteration ?? Number.NaN).filter(Number.isFinite));
    return `| ${a.arm} | ${c.trapped} of ${c.runs} (${ci(wilsonInterval(c.trapped, c.runs))}) | ${p3(c.fisherP)} | ${c.finalGain ? `${f2(c.finalGain.mean)} (p ${p3(c.finalGain.pGreater)})` : '–'} | ${c.giveBack ? `${f2(c.giveBack.mean)} (p ${p3(c.giveBack.pLess)})` : '–'} | ${boot((r) => r.peak)} | ${boot((r) => r.final)} | ${boot((r) => r.heldOut[1])} | ${f2(a.steps)} | ${f2(a.samplesPerStep)} | ${rolled} | ${f2(secs)} |`;
  });
  return [
    '| arm | trapped (95% interval) | Fisher p (fewer traps than vanilla) | last 10 − start vs vanilla (signed-rank p, higher) | peak − last 10 vs vanilla (p, less) | peak (bootstrap 95%) | last 10 | greedy held-out at the end | optimizer steps / it. | samples (turn windows) / step | rollouts / it. | s / it. (two runs sharing 2 cores) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
