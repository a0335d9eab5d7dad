// The echo-trap detector, online over the metric series of a run. Its collapse rule
// is pre-registered in docs/echo-trap.md ("The rule") and calibrated on two nulls there.
// - collapse (the echo trap): success rose above the run's own start by more than the noise, and
//   then fell back to at or below that start. The start is the mean over the warm-up (iterations
//   0–4), the peak the best mean over `window` consecutive iterations after the warm-up, and the
//   fall is the mean over the `finalWindow` iterations after the peak window (at the end of a run:
//   its last 10). The noise treats a group as one unit: a group's rollouts share a start state, so
//   a window's standard error is the between-group spread of group success rates over
//   √(groups in the window) (`windowStdError`), not that of P × N independent coin flips; 4
//   layouts of very different difficulty in one iteration do not read as a rise and a fall.
//   Success is read on the paired rollouts (the first P groups, which every arm shares), so an
//   oversampling arm is judged on the same rollouts as vanilla;
// - convergence: reward std collapsing while success stays high is not a trap;
// - early warnings: think MI falling, modal think share rising, malformed rate rising, held-out
//   success falling — the signals that separated collapsed runs from healthy ones in the
//   prototype; their firing rates on frozen-control runs are
//   measured by `starpo calibrate` (docs/echo-trap.md). Greedy held-out success on fixed seeds
//   cannot move on a frozen policy, so its rate is "not calibratable from a frozen control";
// - context: in-group reward-std drop, entropy anomaly, gradient-norm spike — the paper's order
//   of signals, shown but not counted as warnings because the prototype saw them fire in healthy
//   runs too — and the action-MI drop, which fired in 11 of 16 frozen-control runs.
// The warning rules smooth with a debiased EMA (TensorBoard's), so the first points are not
// pulled to zero; a rule is ready after `warmup` measurements of its own metric (MI, measured
// every few iterations, after 2).
import type { Config } from '../config.js';
import type { MetricRow } from './keys.js';
import { type RunVerdict, verdictFrom } from './verdict.js';

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

/** Binomial standard error of a success rate `p` measured over `n` rollouts: sqrt(p(1−p)/n). */
export function binomialStdError(p: number, n: number): number {
  return Math.sqrt((p * (1 - p)) / n);
}

/**
 * How far apart two success rates may lie from sampling noise alone: z standard errors of their
 * difference under the null that both come from one rate — the two-proportion test with the
 * pooled rate p̄ = (na·pa + nb·pb)/(na + nb):
 *   bound = z · sqrt(dispersion · p̄(1 − p̄) · (1/na + 1/nb)).
 * The fallback bound for stored rows without the between-group spread.
 */
export function noiseBound(
  pa: number,
  na: number,
  pb: number,
  nb: number,
  z: number,
  dispersion = 1,
): number {
  const pooled = (na * pa + nb * pb) / (na + nb);
  return z * Math.sqrt(dispersion * pooled * (1 - pooled) * (1 / na + 1 / nb));
}

/**
 * Standard error of the mean success over a window of iterations with groups as the units: each
 * iteration's P groups start from fresh start states, so the group success rates are independent
 * draws whose variance (start-state difficulty plus the rollouts' own noise) is estimated by the
 * per-iteration between-group variances `groupVars` (unbiased, over P groups):
 *   SE = sqrt(mean(groupVars) / (points · P)).
 */
export function windowStdError(groupVars: readonly number[], groups: number): number {
  if (groupVars.length === 0 || groups < 1) return Number.NaN;
  const v = groupVars.reduce((a, b) => a + b, 0) / groupVars.length;
  return Math.sqrt(v / (groupVars.length * groups));
}

/**
 * A debiased EMA with the baseline (mean of the first `warmup` smoothed points), peak and trough:
 * the warning rules' view of one metric.
 */
class Series {
  private ema = 0;
  private weight = 0;
  n = 0;
  smoothed = Number.NaN;
  baseline = Number.NaN;
  peak = Number.NEGATIVE_INFINITY;
  peakAt = -1;
  trough = Number.POSITIVE_INFINITY;
  private baseSum = 0;
  readonly recent: number[] = [];

  constructor(
    private readonly alpha: number,
    private readonly warmup: number,
  ) {}

  push(x: number, iteration: number): void {
    this.ema = this.alpha * this.ema + (1 - this.alpha) * x;
    this.weight = this.alpha * this.weight + (1 - this.alpha);
    this.smoothed = this.ema / this.weight;
    this.n++;
    if (this.n <= this.warmup) {
      this.baseSum += this.smoothed;
      this.baseline = this.baseSum / this.n;
    }
    if (this.smoothed > this.peak) {
      this.peak = this.smoothed;
      this.peakAt = iteration;
    }
    if (this.n > this.warmup) this.trough = Math.min(this.trough, this.smoothed);
    this.recent.push(x);
    if (this.recent.length > 10) this.recent.shift();
  }

  get ready(): boolean {
    return this.n > this.warmup;
  }
}

interface Rule {
  signal: string;
  metric: string;
  kind: 'warning' | 'context';
  /** Returns the event's message, value and reference when the rule fires now. */
  test(s: Series, d: EchoTrapDetector): { message: string; value: number; reference: number } | null;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

// biome-ignore format: one rule per row group reads better unwrapped
const RULES: readonly Rule[] = [
  { signal: 'rewardStdDrop', metric: 'rollout/inGroupRewardStd', kind: 'context',
    test: (s) => s.ready && s.baseline > 0.02 && s.smoothed <= 0.1 * s.baseline
      ? { message: `in-group reward variance fell to ${pct(s.smoothed / s.baseline)} of its start: rollouts from the same start state have become near-identical`, value: s.smoothed, reference: s.baseline } : null },
  { signal: 'entropyRise', metric: 'actor/entropy', kind: 'context',
    test: (s) => s.ready && Number.isFinite(s.trough) && s.smoothed >= 1.5 * s.trough && s.smoothed - s.trough > 0.1
      ? { message: `entropy rose ${pct(s.smoothed / s.trough - 1)} above its low: the policy is becoming erratic rather than confident`, value: s.smoothed, reference: s.trough } : null },
  { signal: 'entropyDrop', metric: 'actor/entropy', kind: 'context',
    test: (s) => s.ready && s.baseline > 0 && s.smoothed <= 0.2 * s.baseline
      ? { message: `entropy fell to ${pct(s.smoothed / s.baseline)} of its start: sampling has become nearly deterministic`, value: s.smoothed, reference: s.baseline } : null },
  { signal: 'gradNormSpike', metric: 'actor/gradNorm', kind: 'context',
    test: (s) => {
      if (s.recent.length < 6) return null;
      const last = s.recent[s.recent.length - 1] as number;
      const ref = median(s.recent.slice(0, -1));
      return ref > 0 && last > 5 * ref
        ? { message: `gradient norm spiked to ${(last / ref).toFixed(1)}× its recent median`, value: last, reference: ref } : null;
    } },
  { signal: 'actionMiDrop', metric: 'reasoning/actionMi', kind: 'context',
    test: (s) => s.ready && s.peak >= 0.05 && s.smoothed <= 0.5 * s.peak
      ? { message: `the first action now depends much less on the start state (action MI at ${pct(s.smoothed / s.peak)} of its peak): the agent acts the same whatever it sees`, value: s.smoothed, reference: s.peak } : null },
  { signal: 'thinkMiDrop', metric: 'reasoning/mi', kind: 'warning',
    test: (s) => s.ready && s.peak >= 0.05 && s.smoothed <= 0.5 * s.peak
      ? { message: `the thinking depends much less on the input (reasoning MI at ${pct(s.smoothed / s.peak)} of its peak): reasoning is turning into a template`, value: s.smoothed, reference: s.peak } : null },
  { signal: 'modalThinkRise', metric: 'reasoning/modalThinkShare', kind: 'warning',
    test: (s) => s.ready && s.smoothed >= Math.max(0.5, s.baseline + 0.3)
      ? { message: `${pct(s.smoothed)} of turns now share one identical thinking string (${pct(s.baseline)} at the start)`, value: s.smoothed, reference: s.baseline } : null },
  { signal: 'malformedRise', metric: 'rollout/malformedRate', kind: 'warning',
    test: (s) => s.ready && s.smoothed >= Math.max(0.25, s.baseline + 0.2)
      ? { message: `${pct(s.smoothed)} of turns are malformed or invalid (${pct(s.baseline)} at the start)`, value: s.smoothed, reference: s.baseline } : null },
  { signal: 'heldOutDrop', metric: 'eval/successRate', kind: 'warning',
    test: (s) => s.n >= 3 && s.peak >= 0.2 && s.smoothed <= 0.7 * s.peak
      ? { message: `held-out success fell to ${pct(s.smoothed / s.peak)} of its peak`, value: s.smoothed, reference: s.peak } : null },
];

/**
 * Metrics measured every few iterations (MI, held-out evaluation): their rules are ready after 2
 * measurements of their own, not after the warm-up's 5 iterations.
 */
const SPARSE_METRICS: ReadonlySet<string> = new Set([
  'reasoning/mi',
  'reasoning/retrievalAcc',
  'eval/successRate',
  'eval/sampledSuccessRate',
]);

/** Signals that cannot fire on a frozen policy, so a frozen control cannot calibrate them. */
export const NOT_CALIBRATABLE_FROM_FROZEN: ReadonlySet<string> = new Set(['heldOutDrop']);

/** Each rule's kind by signal ('warning' counts toward lead times; 'context' is shown only). */
export const SIGNAL_KINDS: Readonly<Record<string, 'warning' | 'context'>> = Object.fromEntries(
  RULES.map((r) => [r.signal, r.kind]),
);

/** Every signal the detector can fire: its rules, then the collapse and recovery of success. */
export const DETECTOR_SIGNALS: readonly string[] = [
  ...RULES.map((r) => r.signal),
  'successCollapse',
  'successRecovery',
];

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
      const hit = rule.test(this.get(rule.metric), this);
      const id = rule.signal;
      if (hit && !this.active.has(id)) {
        this.active.add(id);
        let kind: EventKind = rule.kind;
        let message = hit.message;
        if (id === 'rewardStdDrop' && windowSuccess >= this.options.convergedSuccess) {
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
    let peak = Number.NEGATIVE_INFINITY;
    let peakStart = -1;
    for (let a = warmup; a + window <= n - finalWindow; a++) {
      const m = meanOf(xs.slice(a, a + window));
      if (m > peak) {
        peak = m;
        peakStart = a;
      }
    }
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
      for (let a = 0; a + window <= this.rawSuccess.length; a++) {
        const m = meanOf(this.rawSuccess.slice(a, a + window));
        if (m > peak) {
          peak = m;
          peakAt = this.successAt[a + window - 1] as number;
        }
      }
      if (peakAt < 0 && this.rawSuccess.length > 0) {
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

function meanOf(xs: readonly number[]): number {
  return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}

/** Standard errors `diff` spans when one standard error is `se` (0 when neither moves). */
function zOf(diff: number, se: number): number {
  if (se > 0) return diff / se;
  return diff > 0 ? Number.POSITIVE_INFINITY : 0;
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
