// The echo-trap detector, online over the metric series of a run. Its collapse rule
// is pre-registered in docs/echo-trap.md ("The rule") and calibrated on two nulls there.
// - collapse (the echo trap): success rose above the run's own start by more than the noise, and
//   then fell back to at or below that start. The start is the mean over the warm-up (iterations
//   0–4), the peak the best mean over `window` consecutive iterations after the warm-up, and the
//   fall is the mean over the `finalWindow` iterations after the peak window (at the end of a run:
//   its last 10). The noise treats a group as one unit (noise.ts `windowStdError`): a group's
//   rollouts share a start state, so 4 layouts of very different difficulty in one iteration do
//   not read as a rise and a fall. Success is read on the paired rollouts (the first P groups,
//   which every arm shares), so an oversampling arm is judged on the same rollouts as vanilla;
// - convergence: reward std collapsing while success stays high is not a trap;
// - early warnings and context signals: the rule table in detectorRules.ts.
// Its noise bound and rule table are re-exported here, so callers import the detector from one
// place.
import type { Config } from '../config.js';
import { pct, RULES, Series, SPARSE_METRICS } from './detectorRules.js';
import type { MetricRow } from './keys.js';
import { bestWindow, meanOf, windowStdError, zOf } from './noise.js';
import { type RunVerdict, verdictFrom } from './verdict.js';

export {
  DETECTOR_SIGNALS,
  NOT_CALIBRATABLE_FROM_FROZEN,
  SIGNAL_KINDS,
} from './detectorRules.js';
export { binomialStdError, noiseBound, windowStdError } from './noise.js';

export type EventKind = 'warning' | 'context' | 'collapse' | 'recovery' | 'convergence';

export interface EchoEvent {
  iteration: number;
  kind: EventKind;
  /** Which signal fired, e.g. `rewardStdDrop`; stable names used by tables and the UI. */
  signal: string;
  /** The metric it read. */
  metric: string;
  /** Plain words for the banner. */
  message: string;
  value: number;
  reference: number;
}

export interface DetectorOptions {
  /**
   * Series whose collapse defines the trap: the paired rollouts' success (the first P groups,
   * shared by every arm); rows written before it existed fall back to `rollout/successRate`.
   */
  successKey: 'rollout/pairedSuccessRate' | 'rollout/successRate' | 'eval/successRate';
  /** Rollouts behind each point of the success series (P × N of the paired groups). */
  rollouts: number;
  /** Groups behind each point (P): the units of the noise bound. */
  groups: number;
  /** Points averaged into the peak's window mean. */
  window: number;
  /** Points averaged into the fall's window mean (the last 10 iterations at the end of a run). */
  finalWindow: number;
  /**
   * Points that set the baselines before any rule may fire; the run's start is the mean of
   * success over them, and a peak counts only from a window that begins after them.
   */
  warmup: number;
  /** Standard errors the rise and the fall must each exceed (pre-registered: 3). */
  z: number;
  /**
   * Variance of the success rate over the binomial variance, used only for rows that lack the
   * between-group spread (`rollout/groupSuccessStd`, written since the paired metrics exist).
   */
  dispersion: number;
  /** EMA weight of the past for the warning and context rules (0 = no smoothing). */
  smoothing: number;
  /** Window success at or above this while reward std collapses means convergence. */
  convergedSuccess: number;
}

export const DEFAULT_DETECTOR: DetectorOptions = {
  successKey: 'rollout/pairedSuccessRate',
  rollouts: 32,
  groups: 4,
  window: 5,
  finalWindow: 10,
  warmup: 5,
  z: 3,
  dispersion: 1,
  smoothing: 0.6,
  convergedSuccess: 0.8,
};

/** The detector's options for a run of `config`: its paired P groups of N rollouts. */
export function detectorOptionsFor(config: Pick<Config, 'groups' | 'groupSize'>): Partial<DetectorOptions> {
  // Every arm is judged on its first P groups (an oversampling arm rolls out more, but those P
  // are the ones vanilla rolls out too): the same P × N rollouts whatever the arm.
  return { rollouts: config.groups * config.groupSize, groups: config.groups };
}

/** What a finished (or running) run amounts to. */
export interface RunSummary {
  /**
   * The verdict at the end: success rose above the run's start beyond the noise and its last
   * `finalWindow` iterations are at or below that start, the fall beyond the noise too.
   */
  echoTrap: boolean;
  /** The rule held at some iteration but no longer holds at the end. */
  recovered: boolean;
  converged: boolean;
  /** Mean success over the warm-up (the run's start); absent in summaries stored before it. */
  startSuccess?: number;
  /** Highest mean success over `window` consecutive iterations (over all points before that). */
  peakSuccess: number;
  /** The iteration that window ended at. */
  peakIteration: number;
  /** Mean of the last (up to) `finalWindow` success values. */
  finalSuccess: number;
  /** First iteration at which the collapse rule held. */
  collapseIteration: number | null;
  firstWarningIteration: number | null;
  /** Collapse iteration − first warning iteration, when a warning came first. */
  firstWarningLead: number | null;
  /** Warnings fired in a run that never collapsed (false alarms). */
  falseWarnings: number;
  /** Iterations of each signal's first firing. */
  firstFired: Record<string, number>;
  /**
   * The verdict in four words with its numbers (verdict.ts); absent in summaries stored before it
   * existed (judge those again from their rows with detectRun).
   */
  verdict?: RunVerdict;
}

/** The collapse rule's reading of a run at one point: its rise, fall and their z. */
export interface Reading {
  start: number;
  peak: number;
  peakAt: number;
  now: number;
  /** Standard errors of the start, peak and last-window means (windowStdError, groups as units). */
  seStart: number;
  sePeak: number;
  seNow: number;
  riseZ: number;
  fallZ: number;
  /** The rule holds: both z above the threshold and `now` at or below the start. */
  holds: boolean;
}

/** Feed one metric row per iteration; get the events that fired at that iteration. */
export class EchoTrapDetector {
  readonly options: DetectorOptions;
  readonly events: EchoEvent[] = [];
  private readonly series = new Map<string, Series>();
  private readonly active = new Set<string>();
  private readonly rawSuccess: number[] = [];
  /** Per point: the between-group variance of group success rates (NaN when not recorded). */
  private readonly groupVar: number[] = [];
  private readonly successAt: number[] = [];
  private collapsedAt: number | null = null;
  private convergedAt: number | null = null;
  private maxCollapseZ = Number.NEGATIVE_INFINITY;

  constructor(options: Partial<DetectorOptions> = {}) {
    this.options = { ...DEFAULT_DETECTOR, ...options };
  }

  private get(metric: string): Series {
    let s = this.series.get(metric);
    if (!s) {
      s = new Series(this.options.smoothing, SPARSE_METRICS.has(metric) ? 2 : this.options.warmup);
      this.series.set(metric, s);
    }
    return s;
  }

  /** Mean success over the last `window` points (over all of them before that); NaN before any. */
  get success(): number {
    return meanOf(this.rawSuccess.slice(-this.options.window));
  }

  /** The run's start: mean success over the warm-up (NaN until it is complete). */
  get startSuccess(): number {
    const { warmup } = this.options;
    return this.rawSuccess.length >= warmup ? meanOf(this.rawSuccess.slice(0, warmup)) : Number.NaN;
  }

  /** The success value of a row: the paired rollouts', or the whole batch's in older rows. */
  private successOf(row: MetricRow): number | undefined {
    const key = this.options.successKey;
    const v = row[key] ?? (key === 'rollout/pairedSuccessRate' ? row['rollout/successRate'] : undefined);
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  }

  update(row: MetricRow): EchoEvent[] {
    const it = row.iteration;
    const fired: EchoEvent[] = [];
    for (const [k, v] of Object.entries(row)) {
      if (k !== 'iteration' && typeof v === 'number' && Number.isFinite(v)) this.get(k).push(v, it);
    }
    const succ = this.successOf(row);
    if (succ !== undefined) {
      this.rawSuccess.push(succ);
      this.successAt.push(it);
      const sd = row['rollout/groupSuccessStd'];
      this.groupVar.push(typeof sd === 'number' && Number.isFinite(sd) ? sd * sd : Number.NaN);
    }
    const windowSuccess = this.success;

    for (const rule of RULES) {
      if (!(rule.metric in row)) continue;
      const hit = rule.test(this.get(rule.metric));
      const id = rule.signal;
      if (hit && !this.active.has(id)) {
        this.active.add(id);
        let kind: EventKind = rule.kind;
        let message = hit.message;
        if (rule.convergence && windowSuccess >= this.options.convergedSuccess) {
          kind = 'convergence';
          message = `${hit.message} — because nearly all of them succeed (success ${pct(windowSuccess)}): this is convergence, not collapse`;
          this.convergedAt ??= it;
        }
        fired.push({
          iteration: it,
          kind,
          signal: id,
          metric: rule.metric,
          message,
          value: hit.value,
          reference: hit.reference,
        });
      } else if (!hit) {
        this.active.delete(id);
      }
    }

    if (succ !== undefined) {
      const e = this.collapseEvent(it);
      if (e) fired.push(e);
    }
    this.events.push(...fired);
    return fired;
  }

  /**
   * Standard error of the mean over points [a, b): groups as units when the rows carry the
   * between-group spread, else the binomial bound of the rollouts times `dispersion`.
   */
  private stdError(a: number, b: number): number {
    const vars = this.groupVar.slice(a, b);
    if (vars.length > 0 && vars.every(Number.isFinite)) return windowStdError(vars, this.options.groups);
    const p = meanOf(this.rawSuccess.slice(a, b));
    return Math.sqrt((this.options.dispersion * p * (1 - p)) / ((b - a) * this.options.rollouts));
  }

  /**
   * The rule's reading now: start = the warm-up's mean; peak = the best `window`-point mean that
   * begins after the warm-up and ends before the last `finalWindow` points; now = the mean of those
   * last points. Null until a peak window and a full fall window fit after the warm-up.
   */
  reading(): Reading | null {
    const { warmup, window, finalWindow, z } = this.options;
    const n = this.rawSuccess.length;
    if (n < warmup + window + finalWindow) return null;
    const xs = this.rawSuccess;
    const { mean: peak, start: peakStart } = bestWindow(xs, window, warmup, n - finalWindow);
    const start = meanOf(xs.slice(0, warmup));
    const now = meanOf(xs.slice(n - finalWindow));
    const seStart = this.stdError(0, warmup);
    const sePeak = this.stdError(peakStart, peakStart + window);
    const seNow = this.stdError(n - finalWindow, n);
    const riseZ = zOf(peak - start, Math.hypot(seStart, sePeak));
    const fallZ = zOf(peak - now, Math.hypot(sePeak, seNow));
    return {
      start,
      peak,
      peakAt: this.successAt[peakStart + window - 1] as number,
      now,
      seStart,
      sePeak,
      seNow,
      riseZ,
      fallZ,
      holds: riseZ > z && fallZ > z && now <= start,
    };
  }

  /**
   * The largest z at which the collapse rule would have held at some point so far: min(riseZ,
   * fallZ) over the points where the fall reached the start (−∞ before any). The calibration's
   * null statistic: a null run is flagged at z exactly when this exceeds z.
   */
  get collapseZ(): number {
    return this.maxCollapseZ;
  }

  /** The z at which the end-of-run verdict would hold now (−∞ when the fall is above the start). */
  get finalZ(): number {
    const r = this.reading();
    return r && r.now <= r.start ? Math.min(r.riseZ, r.fallZ) : Number.NEGATIVE_INFINITY;
  }

  /** The collapse the point at iteration `it` completes (once per run), if any. */
  private collapseEvent(it: number): EchoEvent | null {
    const r = this.reading();
    if (!r) return null;
    if (r.now <= r.start) this.maxCollapseZ = Math.max(this.maxCollapseZ, Math.min(r.riseZ, r.fallZ));
    if (this.collapsedAt !== null || !r.holds) return null;
    this.collapsedAt = it;
    const { finalWindow, z, groups } = this.options;
    const first = this.successAt[this.rawSuccess.length - finalWindow] as number;
    return {
      iteration: it,
      kind: 'collapse',
      signal: 'successCollapse',
      metric: this.options.successKey,
      message: `echo trap: success rose from ${pct(r.start)} at the start to ${pct(r.peak)} (the ${this.options.window} iterations to ${r.peakAt}) and fell back to ${pct(r.now)} over iterations ${first}–${it}, at or below where it started; the rise and the fall are ${r.riseZ.toFixed(1)} and ${r.fallZ.toFixed(1)} standard errors (threshold ${z}, ${groups} groups an iteration as the units)`,
      value: r.now,
      reference: r.peak,
    };
  }

  summary(): RunSummary {
    const firstFired: Record<string, number> = {};
    for (const e of this.events) if (!(e.signal in firstFired)) firstFired[e.signal] = e.iteration;
    const warnings = this.events.filter((e) => e.kind === 'warning');
    const before = warnings.filter((e) => this.collapsedAt !== null && e.iteration <= this.collapsedAt);
    const firstWarningIteration = (this.collapsedAt !== null ? before[0] : warnings[0])?.iteration ?? null;
    const r = this.reading();
    const trapped = r?.holds ?? false;
    const { window, finalWindow } = this.options;
    // Before a peak window fits, the peak is the best window so far (or the mean of all points).
    let peak = r?.peak ?? Number.NEGATIVE_INFINITY;
    let peakAt = r?.peakAt ?? -1;
    if (!r) {
      const best = bestWindow(this.rawSuccess, window, 0, this.rawSuccess.length);
      if (best.start >= 0) {
        peak = best.mean;
        peakAt = this.successAt[best.start + window - 1] as number;
      } else if (this.rawSuccess.length > 0) {
        peak = meanOf(this.rawSuccess);
        peakAt = this.successAt.at(-1) as number;
      }
    }
    return {
      echoTrap: trapped,
      recovered: this.collapsedAt !== null && !trapped,
      converged: this.convergedAt !== null && this.collapsedAt === null,
      // Absent before the warm-up is complete (a NaN would not survive JSON).
      ...(Number.isFinite(this.startSuccess) ? { startSuccess: this.startSuccess } : {}),
      peakSuccess: Math.max(0, peak),
      peakIteration: peakAt,
      finalSuccess: this.rawSuccess.length > 0 ? meanOf(this.rawSuccess.slice(-finalWindow)) : 0,
      collapseIteration: this.collapsedAt,
      firstWarningIteration,
      firstWarningLead:
        this.collapsedAt !== null && firstWarningIteration !== null
          ? this.collapsedAt - firstWarningIteration
          : null,
      falseWarnings: this.collapsedAt === null ? warnings.length : 0,
      verdict: verdictFrom({
        reading: r,
        trapped,
        collapseIteration: this.collapsedAt,
        iterations: this.rawSuccess.length,
        minIterations: this.options.warmup + this.options.window + this.options.finalWindow,
        z: this.options.z,
      }),
      firstFired,
    };
  }
}

/**
 * A detector fed the rows of a stored run of `config` (rows in iteration order): how the study,
 * the calibration and a replayed CLI run judge a run again with the detector the trainer uses.
 */
export function detectRun(
  config: Pick<Config, 'groups' | 'groupSize'>,
  rows: readonly MetricRow[],
  options: Partial<DetectorOptions> = {},
): EchoTrapDetector {
  const d = new EchoTrapDetector({ ...detectorOptionsFor(config), ...options });
  for (const r of [...rows].sort((a, b) => a.iteration - b.iteration)) d.update(r);
  return d;
}

/** The verdict of a stored run of `config`, judged again from its rows. */
export function verdictOfRows(
  config: Pick<Config, 'groups' | 'groupSize'>,
  rows: readonly MetricRow[],
): RunVerdict {
  return detectRun(config, rows).summary().verdict as RunVerdict;
}
