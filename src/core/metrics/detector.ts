// The echo-trap detector (DESIGN §6), online over the metric series of a run.
// - collapse: smoothed success falls to half or less of a peak of at least 0.2;
// - early warnings: action or think MI falling, modal think share rising, malformed rate
//   rising, held-out success falling — the signals that separated collapsed runs from healthy
//   ones in the prototype (reference/echo-trap-round2.md);
// - context: in-group reward-std drop, entropy anomaly, gradient-norm spike — the paper's order
//   of signals (reference/ragen.md §3), shown but not counted as warnings because the prototype
//   saw them fire in healthy runs too;
// - convergence: reward std collapsing while success stays high is not a trap.
// Smoothing is a debiased EMA (TensorBoard's), so the first points are not pulled to zero.
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
  /** EMA weight of the past (0 = no smoothing). */
  smoothing: number;
  /** Iterations that set the baselines before any rule may fire. */
  warmup: number;
  /** Collapse when smoothed success ≤ (1 − collapseDrop)·peak. */
  collapseDrop: number;
  /** A peak must reach this to count. */
  minPeak: number;
  /** Recovered when smoothed success is back to this share of the peak. */
  recoverShare: number;
  /** Smoothed success at or above this while reward std collapses means convergence. */
  convergedSuccess: number;
}

export const DEFAULT_DETECTOR: DetectorOptions = {
  successKey: 'rollout/successRate',
  smoothing: 0.6,
  warmup: 5,
  collapseDrop: 0.5,
  minPeak: 0.2,
  recoverShare: 0.8,
  convergedSuccess: 0.8,
};

/** A debiased EMA with the baseline (mean of the first `warmup` smoothed points), peak and trough. */
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
  { signal: 'actionMiDrop', metric: 'reasoning/actionMi', kind: 'warning',
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
  peakSuccess: number;
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
  private collapsedAt: number | null = null;
  private peakBeforeCollapse = 0;
  private recoveredAt: number | null = null;
  private convergedAt: number | null = null;

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

  /** Smoothed success now (NaN before the first point). */
  get success(): number {
    return this.get(this.options.successKey).smoothed;
  }

  update(row: MetricRow): EchoEvent[] {
    const it = row.iteration;
    const fired: EchoEvent[] = [];
    for (const [k, v] of Object.entries(row)) {
      if (k !== 'iteration' && typeof v === 'number' && Number.isFinite(v)) this.get(k).push(v, it);
    }
    const succRaw = row[this.options.successKey];
    if (typeof succRaw === 'number' && Number.isFinite(succRaw)) this.rawSuccess.push(succRaw);
    const succ = this.get(this.options.successKey);

    for (const rule of RULES) {
      if (!(rule.metric in row)) continue;
      const hit = rule.test(this.get(rule.metric), this);
      const id = rule.signal;
      if (hit && !this.active.has(id)) {
        this.active.add(id);
        let kind: EventKind = rule.kind;
        let message = hit.message;
        if (id === 'rewardStdDrop' && succ.smoothed >= this.options.convergedSuccess) {
          kind = 'convergence';
          message = `${hit.message} — because nearly all of them succeed (success ${pct(succ.smoothed)}): this is convergence, not collapse`;
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

    if (succ.n > 0) {
      const { collapseDrop, minPeak, recoverShare } = this.options;
      if (
        this.collapsedAt === null &&
        succ.peak >= minPeak &&
        succ.smoothed <= (1 - collapseDrop) * succ.peak
      ) {
        this.collapsedAt = it;
        this.peakBeforeCollapse = succ.peak;
        fired.push({
          iteration: it,
          kind: 'collapse',
          signal: 'successCollapse',
          metric: this.options.successKey,
          message: `success collapsed: ${pct(succ.smoothed)} now against a peak of ${pct(succ.peak)} at iteration ${succ.peakAt}`,
          value: succ.smoothed,
          reference: succ.peak,
        });
      } else if (
        this.collapsedAt !== null &&
        this.recoveredAt === null &&
        succ.smoothed >= recoverShare * this.peakBeforeCollapse
      ) {
        this.recoveredAt = it;
        fired.push({
          iteration: it,
          kind: 'recovery',
          signal: 'successRecovery',
          metric: this.options.successKey,
          message: `success recovered to ${pct(succ.smoothed)} (${pct(succ.smoothed / this.peakBeforeCollapse)} of the earlier peak)`,
          value: succ.smoothed,
          reference: this.peakBeforeCollapse,
        });
      }
    }
    this.events.push(...fired);
    return fired;
  }

  summary(): RunSummary {
    const succ = this.get(this.options.successKey);
    const tail = this.rawSuccess.slice(-5);
    const firstFired: Record<string, number> = {};
    for (const e of this.events) if (!(e.signal in firstFired)) firstFired[e.signal] = e.iteration;
    const warnings = this.events.filter((e) => e.kind === 'warning');
    const before = warnings.filter((e) => this.collapsedAt !== null && e.iteration <= this.collapsedAt);
    const firstWarningIteration = (this.collapsedAt !== null ? before[0] : warnings[0])?.iteration ?? null;
    return {
      echoTrap: this.collapsedAt !== null,
      recovered: this.recoveredAt !== null,
      converged: this.convergedAt !== null && this.collapsedAt === null,
      peakSuccess: succ.n > 0 ? succ.peak : 0,
      peakIteration: succ.peakAt,
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
