// The detector's warning and context rules as one table (RULES), each reading one metric's
// smoothed series (Series: a debiased EMA as TensorBoard's, so the first points are not pulled
// to zero, with its baseline over the warm-up, peak and trough); a rule is ready after `warmup`
// measurements of its own metric (MI and held-out success, measured every few iterations, after
// 2). The kinds:
// - early warnings: think MI falling, modal think share rising, malformed rate rising, held-out
//   success falling — the signals that separated collapsed runs from healthy ones in the
//   prototype; their firing rates on frozen-control runs are measured by `starpo calibrate`
//   (docs/echo-trap.md). Greedy held-out success on fixed seeds cannot move on a frozen policy,
//   so its rate is "not calibratable from a frozen control";
// - context: in-group reward-std drop, entropy anomaly, gradient-norm spike — the paper's order
//   of signals, shown but not counted as warnings because the prototype saw them fire in healthy
//   runs too — and the action-MI drop, which fired in 11 of 16 frozen-control runs. The reward-std
//   drop while success is high reads as convergence instead (its row's `convergence`).
// The collapse rule itself is detector.ts's.
import { median } from '../stats.js';

/**
 * A debiased EMA with the baseline (mean of the first `warmup` smoothed points), peak and trough:
 * the warning rules' view of one metric.
 */
export class Series {
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

export interface Rule {
  signal: string;
  metric: string;
  kind: 'warning' | 'context';
  /** Firing while the window's success is at least `convergedSuccess` means convergence, not collapse. */
  convergence?: true;
  /** Returns the event's message, value and reference when the rule fires now. */
  test(s: Series): { message: string; value: number; reference: number } | null;
}

/** A share as a whole percentage, for messages. */
export const pct = (x: number) => `${Math.round(x * 100)}%`;

// biome-ignore format: one rule per row group reads better unwrapped
export const RULES: readonly Rule[] = [
  { signal: 'rewardStdDrop', metric: 'rollout/inGroupRewardStd', kind: 'context', convergence: true,
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
export const SPARSE_METRICS: ReadonlySet<string> = new Set([
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
