// Calibrating the echo-trap detector from stored runs (issue 18), the statistics only: its
// false-positive rate on frozen-control runs (lr 0: every "trap" is sampling noise), the null
// statistic's spread, the batch's overdispersion against the binomial, a resampled null for
// finer rates than 16 runs allow, each signal's firing rate on frozen runs, and its recall and
// lead time on hand-labelled runs that rose and fell. Plain data in, plain data out: reading run
// directories and writing the report are the command line's (cli/study/calibrate.ts).
import type { Config } from '../config.js';
import { Rng } from '../rng.js';
import { mean } from '../stats.js';
import {
  DEFAULT_DETECTOR,
  DETECTOR_SIGNALS,
  type DetectorOptions,
  detectorOptionsFor,
  detectRun,
  EchoTrapDetector,
  SIGNAL_KINDS,
} from './detector.js';
import type { MetricRow } from './keys.js';

/** One stored run as the calibration reads it. */
export interface CalRun {
  /** Its directory relative to the root it was found under. */
  name: string;
  dir: string;
  config: Config;
  rows: MetricRow[];
  /** summary.json as written at run time (the detector of that commit), when present. */
  stored?: { echoTrap?: boolean; collapseIteration?: number | null; firstFired?: Record<string, number> };
}

/** The hand labels of study runs (results/frozen-control/collapses.json). */
export type CollapseLabel = 'rise-and-fall' | 'fall-without-rise' | 'held' | 'ambiguous';

export interface LabelledRun {
  /** Run directory relative to the study's results directory. */
  run: string;
  label: CollapseLabel;
  /** What the raw success curve shows, in words, written from the curve (not the detector). */
  why: string;
}

/** Whether a stored run has all the rows it planned (a run still going, or cut off, has fewer). */
export const isFinished = (run: CalRun): boolean => run.rows.length >= run.config.iterations;

const success = (rows: readonly MetricRow[]): number[] =>
  rows.map((r) => r['rollout/successRate']).filter((x): x is number => typeof x === 'number');

function variance(xs: readonly number[]): number {
  const m = mean(xs);
  return xs.length > 1 ? xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1) : Number.NaN;
}

/** One frozen run judged: its start, peak, the null statistic and both detectors' verdicts. */
export interface FrozenRow {
  name: string;
  seed: number;
  iterations: number;
  start: number;
  peak: number;
  final: number;
  /** The largest z at which the collapse rule fires on this run (−∞: never, at any z). */
  collapseZ: number;
  collapseIteration: number | null;
  /** The detector of the run's own commit, from summary.json. */
  storedCollapse: number | null | undefined;
  firstFired: Record<string, number>;
  storedFirstFired?: Record<string, number>;
}

export function frozenRow(run: CalRun, options: Partial<DetectorOptions> = {}): FrozenRow {
  const d = detectRun(run.config, run.rows, options);
  const s = d.summary();
  return {
    name: run.name,
    seed: run.config.seed,
    iterations: run.rows.length,
    start: d.startSuccess,
    peak: s.peakSuccess,
    final: s.finalSuccess,
    collapseZ: d.collapseZ,
    collapseIteration: s.collapseIteration,
    storedCollapse: run.stored
      ? run.stored.echoTrap
        ? (run.stored.collapseIteration ?? null)
        : null
      : undefined,
    firstFired: s.firstFired,
    storedFirstFired: run.stored?.firstFired,
  };
}

/**
 * Overdispersion of the frozen batches: each run's variance of per-iteration success over the
 * binomial p̄(1 − p̄)/n of its own mean; pooled as the within-run variance of all runs over the
 * binomial variance at the pooled mean. Above 1 when rollouts of a group (one start state) are
 * correlated: then the binomial bound understates the noise by √φ.
 */
export function dispersionOf(runs: readonly CalRun[]): {
  pooled: number;
  perRun: number[];
  pooledSuccess: number;
} {
  const perRun: number[] = [];
  let ss = 0;
  let dof = 0;
  const all: number[] = [];
  let n = 0;
  for (const r of runs) {
    const xs = success(r.rows);
    n = detectorOptionsFor(r.config).rollouts as number;
    const p = mean(xs);
    perRun.push(variance(xs) / ((p * (1 - p)) / n));
    ss += variance(xs) * (xs.length - 1);
    dof += xs.length - 1;
    all.push(...xs);
  }
  const p = mean(all);
  return { pooled: ss / dof / ((p * (1 - p)) / n), perRun, pooledSuccess: p };
}

/**
 * Whether a frozen run's success is stationary: per run, its mean over the warm-up minus its
 * mean over the later iterations; the mean of that over runs and its standard error. The
 * detector's start assumes none (the policy does not change, so neither should its success).
 */
export function startDriftOf(runs: readonly CalRun[], warmup: number): { mean: number; se: number } {
  const d = runs.map((r) => {
    const xs = success(r.rows);
    return mean(xs.slice(0, warmup)) - mean(xs.slice(warmup));
  });
  return { mean: mean(d), se: Math.sqrt(variance(d) / d.length) };
}

/** The share of `draws` null runs of `length` iterations the detector flags, each success from `draw`. */
function flaggedShare(
  draws: number,
  length: number,
  options: Partial<DetectorOptions>,
  draw: () => number,
): number {
  let flagged = 0;
  for (let k = 0; k < draws; k++) {
    const d = new EchoTrapDetector(options);
    for (let i = 0; i < length; i++) d.update({ iteration: i, 'rollout/successRate': draw() });
    if (d.summary().echoTrap) flagged++;
  }
  return flagged / draws;
}

/**
 * The detector's false-positive rate on resampled null runs: `draws` runs of `length`
 * iterations, each iteration's success drawn with replacement from the pooled frozen batches
 * (iterations of a frozen run are independent: fresh start states, one fixed policy).
 */
export function resampledNullRate(
  pool: readonly number[],
  length: number,
  draws: number,
  options: Partial<DetectorOptions>,
  seed = 1,
): number {
  const rng = new Rng(seed);
  return flaggedShare(draws, length, options, () => pool[rng.int(0, pool.length)] as number);
}

/** The same on binomial null runs: n independent Bernoulli(p) rollouts per iteration. */
export function binomialNullRate(
  p: number,
  n: number,
  length: number,
  draws: number,
  options: Partial<DetectorOptions>,
  seed = 1,
): number {
  const rng = new Rng(seed);
  return flaggedShare(draws, length, { ...options, rollouts: n }, () => {
    let hits = 0;
    for (let j = 0; j < n; j++) hits += rng.float() < p ? 1 : 0;
    return hits / n;
  });
}

/** One labelled study run judged by the detector. */
export interface CollapseRow extends LabelledRun {
  flagged: boolean;
  collapseIteration: number | null;
  peakIteration: number;
  start: number;
  peak: number;
  final: number;
  collapseZ: number;
  firstWarningIteration: number | null;
  storedFlagged: boolean | undefined;
  firstFired: Record<string, number>;
}

export function collapseRow(
  run: CalRun,
  label: LabelledRun,
  options: Partial<DetectorOptions> = {},
): CollapseRow {
  const d = detectRun(run.config, run.rows, options);
  const s = d.summary();
  return {
    ...label,
    flagged: s.echoTrap,
    collapseIteration: s.collapseIteration,
    peakIteration: s.peakIteration,
    start: d.startSuccess,
    peak: s.peakSuccess,
    final: s.finalSuccess,
    collapseZ: d.collapseZ,
    firstWarningIteration: s.firstWarningIteration,
    storedFlagged: run.stored?.echoTrap,
    firstFired: s.firstFired,
  };
}

export interface CalibrationInput {
  frozen: CalRun[];
  /** The labelled study runs with their labels. */
  labelled: { run: CalRun; label: LabelledRun }[];
  options?: Partial<DetectorOptions>;
  /** Resampled and binomial null runs to draw. */
  draws?: number;
  /** Per frozen run: its final policy equals the base byte for byte (null: not checkable here). */
  unchanged?: (boolean | null)[];
  /** Commits the frozen runs were made at (provenance.json). */
  commits?: string[];
}

export interface SignalRate {
  signal: string;
  kind: string;
  frozenFired: number;
  storedFrozenFired: number | null;
  beforeCollapse: number;
  meanLead: number | null;
}

export interface Calibration {
  options: DetectorOptions;
  frozen: FrozenRow[];
  falsePositives: number;
  storedFalsePositives: number | null;
  collapseZ: { max: number; second: number; median: number };
  dispersion: ReturnType<typeof dispersionOf>;
  /** Per frozen run, mean success over the warm-up minus over the rest: mean and standard error. */
  startDrift: { mean: number; se: number };
  resampledNull: number;
  binomialNull: number;
  draws: number;
  signals: SignalRate[];
  collapses: CollapseRow[];
  recall: { flagged: number; of: number };
  heldFlagged: { flagged: number; of: number };
  leads: number[];
  delays: number[];
  grid: {
    window: number;
    warmup: number;
    z: number;
    frozenFp: number;
    resampledFp: number;
    recall: number;
  }[];
  unchanged: (boolean | null)[];
  commits: string[];
}

const SIGNAL_KIND: Record<string, string> = {
  ...SIGNAL_KINDS,
  successCollapse: 'collapse',
  successRecovery: 'recovery',
};

/**
 * Each signal's record: how many frozen runs it fired on (now and by the stored detector), and on
 * the flagged rise-and-fall runs how often it fired before the collapse and how long before.
 */
function signalRates(
  frozen: readonly FrozenRow[],
  flaggedPos: readonly CollapseRow[],
  storedKnown: boolean,
): SignalRate[] {
  return DETECTOR_SIGNALS.map((signal) => {
    const leads = flaggedPos
      .filter((c) => c.firstFired[signal] !== undefined && c.firstFired[signal]! <= c.collapseIteration!)
      .map((c) => c.collapseIteration! - c.firstFired[signal]!);
    return {
      signal,
      kind: SIGNAL_KIND[signal] ?? '?',
      frozenFired: frozen.filter((f) => f.firstFired[signal] !== undefined).length,
      storedFrozenFired: storedKnown
        ? frozen.filter((f) => f.storedFirstFired?.[signal] !== undefined).length
        : null,
      beforeCollapse: signal === 'successCollapse' || signal === 'successRecovery' ? 0 : leads.length,
      meanLead: leads.length > 0 && signal !== 'successCollapse' ? mean(leads) : null,
    };
  });
}

/**
 * The collapse rule over a grid of windows (3, 5) and z (2.5, 3, 3.5), warm-up 5: false alarms on
 * the frozen runs and in the resampled null (drawn from `nul`: the frozen runs' pooled success
 * rates, run length, rollouts and draws), and recall on the labelled rise-and-fall runs.
 */
function detectorGrid(
  input: CalibrationInput,
  given: Partial<DetectorOptions>,
  nul: { pool: number[]; length: number; n: number; draws: number },
  positives: number,
): Calibration['grid'] {
  const grid: Calibration['grid'] = [];
  for (const window of [3, 5]) {
    for (const z of [2.5, 3, 3.5]) {
      const o = { ...given, window, warmup: 5, z };
      grid.push({
        window,
        warmup: 5,
        z,
        frozenFp: input.frozen.filter((r) => detectRun(r.config, r.rows, o).summary().echoTrap).length,
        resampledFp: resampledNullRate(
          nul.pool,
          nul.length,
          Math.min(nul.draws, 1000),
          { ...o, rollouts: nul.n },
          7,
        ),
        recall: positives
          ? input.labelled.filter(
              ({ run, label }) =>
                label.label === 'rise-and-fall' && detectRun(run.config, run.rows, o).summary().echoTrap,
            ).length
          : 0,
      });
    }
  }
  return grid;
}

/** Every figure of the calibration from the loaded runs. */
export function calibrate(input: CalibrationInput): Calibration {
  const options = { ...DEFAULT_DETECTOR, ...(input.options ?? {}) };
  const draws = input.draws ?? 2000;
  const given = input.options ?? {};
  const frozen = input.frozen.map((r) => frozenRow(r, given));
  const zs = frozen.map((f) => f.collapseZ).sort((a, b) => b - a);
  const disp = dispersionOf(input.frozen);
  const pool = input.frozen.flatMap((r) => success(r.rows));
  const length = Math.max(...input.frozen.map((r) => r.rows.length));
  const n = input.frozen[0]
    ? (detectorOptionsFor(input.frozen[0].config).rollouts as number)
    : options.rollouts;
  const collapses = input.labelled.map(({ run, label }) => collapseRow(run, label, given));
  const positives = collapses.filter((c) => c.label === 'rise-and-fall');
  const flaggedPos = positives.filter((c) => c.flagged && c.collapseIteration !== null);
  const storedKnown = frozen.every((f) => f.storedCollapse !== undefined);
  const signals = signalRates(frozen, flaggedPos, storedKnown);
  const grid = detectorGrid(input, given, { pool, length, n, draws }, positives.length);
  return {
    options: { ...options, rollouts: n },
    frozen,
    falsePositives: frozen.filter((f) => f.collapseIteration !== null).length,
    storedFalsePositives: storedKnown ? frozen.filter((f) => f.storedCollapse !== null).length : null,
    collapseZ: {
      max: zs[0] ?? Number.NaN,
      second: zs[1] ?? Number.NaN,
      median: zs.length > 0 ? (zs[(zs.length - 1) >> 1]! + zs[zs.length >> 1]!) / 2 : Number.NaN,
    },
    dispersion: disp,
    startDrift: startDriftOf(input.frozen, options.warmup),
    resampledNull: resampledNullRate(pool, length, draws, { ...given, rollouts: n }, 1),
    binomialNull: binomialNullRate(disp.pooledSuccess, n, length, draws, given, 1),
    draws,
    signals,
    collapses,
    recall: { flagged: flaggedPos.length, of: positives.length },
    heldFlagged: {
      flagged: collapses.filter((c) => c.label === 'held' && c.flagged).length,
      of: collapses.filter((c) => c.label === 'held').length,
    },
    leads: flaggedPos
      .filter((c) => c.firstWarningIteration !== null)
      .map((c) => c.collapseIteration! - c.firstWarningIteration!),
    delays: flaggedPos.map((c) => c.collapseIteration! - c.peakIteration),
    grid,
    unchanged: input.unchanged ?? frozen.map(() => null),
    commits: input.commits ?? [],
  };
}

/** The calibration as the Markdown section of docs/echo-trap.md. */
