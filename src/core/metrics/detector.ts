// The echo-trap detector (DESIGN §6), online over the metric series of a run.
// - collapse (the echo trap): success rose above the run's own start and then fell from that
//   peak, each by more than the sampling noise of the batch, and gave back at least half of what
//   it had gained; judged on means over a window of iterations, never before a warm-up. The
//   noise is the two-proportion binomial bound on the rollouts behind each mean (see
//   `noiseBound`): a frozen policy's batch-to-batch wobble is not a trap, and a peak inside the
//   warm-up (Bandit's iteration 0) gives no verdict;
// - convergence: reward std collapsing while success stays high is not a trap (and success that
//   only dips near 1 never gives back half its rise);
// - early warnings: think MI falling, modal think share rising, malformed rate rising, held-out
//   success falling — the signals that separated collapsed runs from healthy ones in the
//   prototype (reference/echo-trap-round2.md); their firing rates on frozen-control runs are
//   measured by `starpo calibrate` (docs/echo-trap.md);
// - context: in-group reward-std drop, entropy anomaly, gradient-norm spike — the paper's order
//   of signals (reference/ragen.md §3), shown but not counted as warnings because the prototype
//   saw them fire in healthy runs too — and the action-MI drop, which fired in 11 of 16
//   frozen-control runs (the plug-in MI of 32 rollouts over 4 start states swings 0.07–1.3 on a
//   policy that never changes), so its "lead" before a collapse was noise.
// The warning rules smooth with a debiased EMA (TensorBoard's), so the first points are not
// pulled to zero.
import type { Config } from '../config.js';
import type { MetricRow } from './keys.js';

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
  /** Series whose collapse defines the trap. */
  successKey: 'rollout/successRate' | 'eval/successRate';
  /** Rollouts behind each point of the success series (P × N; held-out episodes for eval). */
  rollouts: number;
  /** Points averaged into each window mean of success (the start, the peak and now). */
  window: number;
  /**
   * Points that set the baselines before any rule may fire; the run's start is the mean of
   * success over them, and a peak counts only from a window that begins after them.
   */
  warmup: number;
  /** Standard errors a rise or a fall must exceed (calibrated on frozen-control runs). */
  z: number;
  /**
   * Variance of the success rate over the binomial variance (1: independent rollouts). Rollouts
   * of a group share a start state, so a batch varies more than binomially; docs/echo-trap.md
   * reports the ratio measured on frozen runs.
   */
  dispersion: number;
  /** EMA weight of the past for the warning and context rules (0 = no smoothing). */
  smoothing: number;
  /** Window success at or above this while reward std collapses means convergence. */
  convergedSuccess: number;
}

export const DEFAULT_DETECTOR: DetectorOptions = {
  successKey: 'rollout/successRate',
  rollouts: 32,
  window: 5,
  warmup: 5,
  z: 3,
  dispersion: 1,
  smoothing: 0.6,
  convergedSuccess: 0.8,
};

/** The detector's options for a run of `config`: rollouts per iteration from its batch. */
export function detectorOptionsFor(
  config: Pick<Config, 'groups' | 'groupSize' | 'filterMode' | 'filterRatio'>,
): Partial<DetectorOptions> {
  // Success is measured over every rolled-out trajectory (before the StarPO-S filter), and the
  // oversample filter rolls out ⌈P / ratio⌉ groups (core/rl/filter.ts groupsToRollOut).
  const groups =
    config.filterMode === 'oversample' ? Math.ceil(config.groups / config.filterRatio - 1e-9) : config.groups;
  return { rollouts: groups * config.groupSize };
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
 * With independent windows this is conservative where they overlap (shared points make the
 * difference less noisy, not more).
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
  echoTrap: boolean;
  recovered: boolean;
  converged: boolean;
  /** Highest mean success over `window` consecutive iterations (over all points before that). */
  peakSuccess: number;
  /** The iteration that window ended at. */
  peakIteration: number;
  /** Mean of the last (up to) 5 raw success values. */
  finalSuccess: number;
  collapseIteration: number | null;
  firstWarningIteration: number | null;
  /** Collapse iteration − first warning iteration, when a warning came first. */
  firstWarningLead: number | null;
  /** Warnings fired in a run that never collapsed (false alarms). */
  falseWarnings: number;
  /** Iterations of each signal's first firing. */
  firstFired: Record<string, number>;
}

/** Feed one metric row per iteration; get the events that fired at that iteration. */
export class EchoTrapDetector {
  readonly options: DetectorOptions;
  readonly events: EchoEvent[] = [];
  private readonly series = new Map<string, Series>();
  private readonly active = new Set<string>();
  private readonly rawSuccess: number[] = [];
  private readonly successAt: number[] = [];
  /** Mean success over the warm-up points (the run's start). */
  private start = Number.NaN;
  /** The highest window mean of success that began after the warm-up, and where it ended. */
  private peak = Number.NEGATIVE_INFINITY;
  private peakAt = -1;
  /** The highest window mean of all (the summary's peak), and where it ended. */
  private bestWindow = Number.NEGATIVE_INFINITY;
  private bestWindowAt = -1;
  private collapsedAt: number | null = null;
  private peakBeforeCollapse = 0;
  private troughSinceCollapse = Number.POSITIVE_INFINITY;
  private recoveredAt: number | null = null;
  private convergedAt: number | null = null;
  private maxCollapseZ = Number.NEGATIVE_INFINITY;

  constructor(options: Partial<DetectorOptions> = {}) {
    this.options = { ...DEFAULT_DETECTOR, ...options };
  }

  private get(metric: string): Series {
    let s = this.series.get(metric);
    if (!s) {
      s = new Series(this.options.smoothing, this.options.warmup);
      this.series.set(metric, s);
    }
    return s;
  }

  /** Mean success over the last `window` points (over all of them before that); NaN before any. */
  get success(): number {
    const w = this.rawSuccess.slice(-this.options.window);
    return w.length > 0 ? w.reduce((a, b) => a + b, 0) / w.length : Number.NaN;
  }

  /** The run's start: mean success over the warm-up (NaN until it is complete). */
  get startSuccess(): number {
    return this.rawSuccess.length >= this.options.warmup ? this.start : Number.NaN;
  }

  update(row: MetricRow): EchoEvent[] {
    const it = row.iteration;
    const fired: EchoEvent[] = [];
    for (const [k, v] of Object.entries(row)) {
      if (k !== 'iteration' && typeof v === 'number' && Number.isFinite(v)) this.get(k).push(v, it);
    }
    const succRaw = row[this.options.successKey];
    const hasSuccess = typeof succRaw === 'number' && Number.isFinite(succRaw);
    if (hasSuccess) this.pushSuccess(succRaw, it);
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

    if (hasSuccess) {
      const e = this.collapseEvent(it, windowSuccess);
      if (e) fired.push(e);
    }
    this.events.push(...fired);
    return fired;
  }

  private pushSuccess(x: number, it: number): void {
    const { warmup, window } = this.options;
    this.rawSuccess.push(x);
    this.successAt.push(it);
    const k = this.rawSuccess.length;
    if (k <= warmup) this.start = this.rawSuccess.reduce((a, b) => a + b, 0) / k;
    const m = this.success;
    if (k >= window && m > this.bestWindow) {
      this.bestWindow = m;
      this.bestWindowAt = it;
    }
    // A peak counts from the first window that lies wholly after the warm-up.
    if (k - window >= warmup && m > this.peak) {
      this.peak = m;
      this.peakAt = it;
    }
  }

  /** Standard errors `diff` spans when one standard error is `se` (0 when neither moves). */
  private static zOf(diff: number, se: number): number {
    if (se > 0) return diff / se;
    return diff > 0 ? Number.POSITIVE_INFINITY : 0;
  }

  /**
   * The largest z at which the collapse rule would have fired so far: over the points seen,
   * the most of min(rise, fall) in standard errors where the fall gave back half the rise
   * (−∞ before a peak). The calibration's null statistic: a frozen run is flagged at z exactly
   * when this exceeds z.
   */
  get collapseZ(): number {
    return this.maxCollapseZ;
  }

  /** The collapse (or, after one, the recovery) the point at iteration `it` completes, if any. */
  private collapseEvent(it: number, now: number): EchoEvent | null {
    const { window, warmup, rollouts, z, dispersion } = this.options;
    if (this.peakAt < 0) return null;
    const nWin = window * rollouts;
    const nStart = warmup * rollouts;
    const first = this.successAt[this.rawSuccess.length - window] as number;
    const riseSe = noiseBound(this.start, nStart, this.peak, nWin, 1, dispersion);
    const fallSe = noiseBound(this.peak, nWin, now, nWin, 1, dispersion);
    const halfBack = now <= (this.peak + this.start) / 2;
    const score = halfBack
      ? Math.min(
          EchoTrapDetector.zOf(this.peak - this.start, riseSe),
          EchoTrapDetector.zOf(this.peak - now, fallSe),
        )
      : Number.NEGATIVE_INFINITY;
    this.maxCollapseZ = Math.max(this.maxCollapseZ, score);
    if (this.collapsedAt === null) {
      if (!(score > z)) return null;
      this.collapsedAt = it;
      this.peakBeforeCollapse = this.peak;
      this.troughSinceCollapse = now;
      return {
        iteration: it,
        kind: 'collapse',
        signal: 'successCollapse',
        metric: this.options.successKey,
        message: `success collapsed: ${pct(now)} over iterations ${first}–${it} against a peak of ${pct(this.peak)} (the ${window} iterations to ${this.peakAt}), which had risen from ${pct(this.start)} at the start; the rise and the fall each exceed the sampling noise of ${rollouts} rollouts per iteration (±${pct(z * riseSe)} and ±${pct(z * fallSe)} at ${z} standard errors)`,
        value: now,
        reference: this.peak,
      };
    }
    if (this.recoveredAt !== null) return null;
    // Recovery mirrors the collapse: a rise from the low since the collapse beyond the noise,
    // back above half-way between the start and the peak.
    this.troughSinceCollapse = Math.min(this.troughSinceCollapse, now);
    const low = this.troughSinceCollapse;
    const peak = this.peakBeforeCollapse;
    const riseAgain = now - low > noiseBound(low, nWin, now, nWin, z, dispersion);
    if (!(riseAgain && now > (peak + this.start) / 2)) return null;
    this.recoveredAt = it;
    return {
      iteration: it,
      kind: 'recovery',
      signal: 'successRecovery',
      metric: this.options.successKey,
      message: `success recovered to ${pct(now)} over iterations ${first}–${it}, up from ${pct(low)} after the collapse and past half-way back to the peak (${pct(peak)})`,
      value: now,
      reference: peak,
    };
  }

  summary(): RunSummary {
    const tail = this.rawSuccess.slice(-5);
    const firstFired: Record<string, number> = {};
    for (const e of this.events) if (!(e.signal in firstFired)) firstFired[e.signal] = e.iteration;
    const warnings = this.events.filter((e) => e.kind === 'warning');
    const before = warnings.filter((e) => this.collapsedAt !== null && e.iteration <= this.collapsedAt);
    const firstWarningIteration = (this.collapsedAt !== null ? before[0] : warnings[0])?.iteration ?? null;
    // Before a full window the peak is the mean of the points so far.
    const short = this.bestWindowAt < 0 && this.rawSuccess.length > 0;
    return {
      echoTrap: this.collapsedAt !== null,
      recovered: this.recoveredAt !== null,
      converged: this.convergedAt !== null && this.collapsedAt === null,
      peakSuccess: short ? this.success : Math.max(0, this.bestWindow),
      peakIteration: short ? (this.successAt.at(-1) as number) : this.bestWindowAt,
      finalSuccess: tail.length > 0 ? tail.reduce((a, b) => a + b, 0) / tail.length : 0,
      collapseIteration: this.collapsedAt,
      firstWarningIteration,
      firstWarningLead:
        this.collapsedAt !== null && firstWarningIteration !== null
          ? this.collapsedAt - firstWarningIteration
          : null,
      falseWarnings: this.collapsedAt === null ? warnings.length : 0,
      firstFired,
    };
  }
}

/**
 * A detector fed the rows of a stored run of `config` (rows in iteration order): how the study,
 * the calibration and a replayed CLI run judge a run again with the detector the trainer uses.
 */
export function detectRun(
  config: Pick<Config, 'groups' | 'groupSize' | 'filterMode' | 'filterRatio'>,
  rows: readonly MetricRow[],
  options: Partial<DetectorOptions> = {},
): EchoTrapDetector {
  const d = new EchoTrapDetector({ ...detectorOptionsFor(config), ...options });
  for (const r of [...rows].sort((a, b) => a.iteration - b.iteration)) d.update(r);
  return d;
}
