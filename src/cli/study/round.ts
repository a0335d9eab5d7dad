// The echo-trap round report (docs/echo-trap.md, sections 4–): every stored run of a round judged
// by today's detector (core/metrics/detector.ts, the pre-registered rule), the two nulls' flag
// rates, the search cells, the confirmation against its pre-registered threshold, and what the
// collapses looked like (held-out success, malformed rate, entropy, modal think share,
// distinct-2, think MI, action MI, and the collapse's mode). Nothing is rerun: it reads the run
// directories `starpo sweep` wrote (config.json, metrics.jsonl, summary.json).
import { detectRun, NOT_CALIBRATABLE_FROM_FROZEN, SIGNAL_KINDS } from '../../core/metrics/detector.js';
import type { MetricKey, MetricRow } from '../../core/metrics/keys.js';
import type { SignalRate } from '../../core/metrics/warningRates.js';
import { mean, wilsonInterval } from '../../core/stats.js';
import type { CalRun } from './calibrate.js';

/** The collapse's mode, read off the last 10 iterations against the first 5. */
export type CollapseMode =
  | 'format break'
  | 'one action whatever the input'
  | 'templated thinking'
  | 'none of the three';

/** One run judged. */
export interface RoundRun {
  cell: string;
  seed: number;
  iterations: number;
  trapped: boolean;
  collapseIteration: number | null;
  start: number;
  peak: number;
  peakIteration: number;
  final: number;
  riseZ: number;
  fallZ: number;
  /** Greedy held-out success at the first and the last evaluation. */
  heldOut: [number, number];
  /** Sampled (temperature 1) held-out success at the first and the last evaluation. */
  sampledHeldOut: [number, number];
  /** Each signal: mean over the first 5 iterations where measured, and over the last 10. */
  signals: Record<SignalName, [number, number]>;
  mode: CollapseMode;
  /** Each detector signal's first firing (iteration). */
  firstFired: Record<string, number>;
  secondsPerIteration: number | null;
}

const SIGNAL_KEYS = {
  malformed: 'rollout/malformedRate',
  entropy: 'actor/entropy',
  modalThink: 'reasoning/modalThinkShare',
  distinct2: 'reasoning/distinct2',
  thinkMi: 'reasoning/mi',
  actionMi: 'reasoning/actionMi',
} as const satisfies Record<string, MetricKey>;
export type SignalName = keyof typeof SIGNAL_KEYS;
export const SIGNAL_NAMES = Object.keys(SIGNAL_KEYS) as SignalName[];

/** Mean of `key` over rows [a, b) that carry it (NaN when none does). */
function meanOf(rows: readonly MetricRow[], key: MetricKey): number {
  return mean(rows.map((r) => r[key]).filter((v): v is number => typeof v === 'number'));
}

/** The first and last measured values of a sparse key (evaluations, MI). */
function firstLast(rows: readonly MetricRow[], key: MetricKey): [number, number] {
  const xs = rows.map((r) => r[key]).filter((v): v is number => typeof v === 'number');
  return xs.length > 0 ? [xs[0] as number, xs[xs.length - 1] as number] : [Number.NaN, Number.NaN];
}

/**
 * The collapse's mode: a format break when half the last 10 iterations' turns are malformed; one
 * action whatever the input when action MI fell to a quarter of its start; templated thinking
 * when one thinking string holds half the turns and 0.3 more than at the start; else none.
 */
export function collapseMode(s: Record<SignalName, [number, number]>): CollapseMode {
  return collapseModes(s)[0] ?? 'none of the three';
}

/** Every mode a collapse shows, in the order format break, one action, templated thinking. */
export function collapseModes(s: Record<SignalName, [number, number]>): CollapseMode[] {
  const modes: CollapseMode[] = [];
  if (s.malformed[1] >= 0.5) modes.push('format break');
  if (s.actionMi[1] <= 0.25 * s.actionMi[0]) modes.push('one action whatever the input');
  if (s.modalThink[1] >= 0.5 && s.modalThink[1] >= s.modalThink[0] + 0.3) modes.push('templated thinking');
  return modes;
}

/** Judges one stored run of `cell` with today's detector (`d`: its detector, when already fed). */
export function judgeRun(cell: string, run: CalRun, d = detectRun(run.config, run.rows)): RoundRun {
  const s = d.summary();
  const r = d.reading();
  const head = run.rows.slice(0, 5);
  const tail = run.rows.slice(-10);
  const signals = Object.fromEntries(
    SIGNAL_NAMES.map((name) => {
      const key = SIGNAL_KEYS[name];
      // MI is measured every few iterations: its first and last measurements.
      if (name === 'thinkMi') return [name, firstLast(run.rows, key)];
      return [name, [meanOf(head, key), meanOf(tail, key)]];
    }),
  ) as Record<SignalName, [number, number]>;
  const stored = run.stored as { secondsPerIteration?: number } | undefined;
  return {
    cell,
    seed: run.config.seed,
    iterations: run.rows.length,
    trapped: s.echoTrap,
    collapseIteration: s.collapseIteration,
    start: s.startSuccess ?? Number.NaN,
    peak: s.peakSuccess,
    peakIteration: s.peakIteration,
    final: s.finalSuccess,
    riseZ: r?.riseZ ?? Number.NaN,
    fallZ: r?.fallZ ?? Number.NaN,
    heldOut: firstLast(run.rows, 'eval/successRate'),
    sampledHeldOut: firstLast(run.rows, 'eval/sampledSuccessRate'),
    signals,
    // The mode of any run that ended at or below its start (trapped or not: a collapse without a
    // rise beyond the noise is still a collapse to describe).
    mode: s.finalSuccess <= (s.startSuccess ?? Number.NaN) ? collapseMode(signals) : 'none of the three',
    firstFired: s.firstFired,
    secondsPerIteration: stored?.secondsPerIteration ?? null,
  };
}

/** A cell's runs in one line: trapped k of n with its 95% Wilson interval. */
export interface CellSummary {
  cell: string;
  runs: number;
  trapped: number;
  interval: [number, number];
  meanPeakMinusFinal: number;
  meanRiseZ: number;
}

export function cellSummary(cell: string, runs: readonly RoundRun[]): CellSummary {
  const trapped = runs.filter((r) => r.trapped).length;
  return {
    cell,
    runs: runs.length,
    trapped,
    interval: wilsonInterval(trapped, runs.length),
    meanPeakMinusFinal: mean(runs.map((r) => r.peak - r.final)),
    meanRiseZ: mean(runs.map((r) => r.riseZ)),
  };
}

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const pair = ([a, b]: [number, number]) => `${f2(a)} → ${f2(b)}`;
const ci = ([lo, hi]: [number, number]) => `${f2(lo)}–${f2(hi)}`;

/** The per-run table of a cell. */
export function runTable(runs: readonly RoundRun[]): string {
  const head =
    '| seed | start | peak (it.) | last 10 | rise, fall (SE) | trapped (it.) | greedy held-out | malformed | modal think | action MI | think MI | mode |\n|---|---|---|---|---|---|---|---|---|---|---|---|';
  const rows = runs.map(
    (r) =>
      `| ${r.seed} | ${f2(r.start)} | ${f2(r.peak)} (${r.peakIteration}) | ${f2(r.final)} | ${f1(r.riseZ)}, ${f1(r.fallZ)} | ${r.trapped ? `**yes** (${r.collapseIteration})` : r.collapseIteration !== null ? `no, recovered (${r.collapseIteration})` : 'no'} | ${pair(r.heldOut)} | ${pair(r.signals.malformed)} | ${pair(r.signals.modalThink)} | ${pair(r.signals.actionMi)} | ${pair(r.signals.thinkMi)} | ${r.final <= r.start ? r.mode : '–'} |`,
  );
  return [head, ...rows].join('\n');
}

/** The one-line-per-cell table. */
export function cellTable(cells: readonly CellSummary[]): string {
  const head =
    '| cell | runs | trapped | 95% interval | mean peak − last 10 | mean rise (SE) |\n|---|---|---|---|---|---|';
  return [
    head,
    ...cells.map(
      (c) =>
        `| ${c.cell} | ${c.runs} | ${c.trapped} | ${ci(c.interval)} | ${f2(c.meanPeakMinusFinal)} | ${f1(c.meanRiseZ)} |`,
    ),
  ].join('\n');
}

/**
 * What the trap looked like: each signal's mean over the trapped runs of `trapped` against the
 * frozen runs of `frozen`, first 5 → last 10 iterations (MI: first → last measurement).
 */
export function signatureTable(
  trapped: readonly RoundRun[],
  frozen: readonly RoundRun[],
  label = 'trapped runs',
): string {
  const side = (runs: readonly RoundRun[], name: SignalName): [number, number] => [
    mean(runs.map((r) => r.signals[name][0]).filter(Number.isFinite)),
    mean(runs.map((r) => r.signals[name][1]).filter(Number.isFinite)),
  ];
  const held = (runs: readonly RoundRun[]): [number, number] => [
    mean(runs.map((r) => r.heldOut[0])),
    mean(runs.map((r) => r.heldOut[1])),
  ];
  const rows = [
    `| greedy held-out success | ${pair(held(trapped))} | ${pair(held(frozen))} |`,
    ...SIGNAL_NAMES.map((n) => `| ${n} | ${pair(side(trapped, n))} | ${pair(side(frozen, n))} |`),
  ];
  return [
    `| signal (first 5 → last 10) | ${label} (${trapped.length}) | frozen runs (${frozen.length}) |\n|---|---|---|`,
    ...rows,
  ].join('\n');
}

/**
 * Every detector signal's record over a round's runs: how many frozen and holding runs it fired
 * in (its false alarms; null where a frozen control cannot measure it), and in how many trapped
 * runs it fired at or before the collapse, with the mean lead.
 */
export function signalRates(
  frozen: readonly RoundRun[],
  hold: readonly RoundRun[],
  trapped: readonly RoundRun[],
): SignalRate[] {
  const fired = (runs: readonly RoundRun[], sig: string) => runs.filter((r) => sig in r.firstFired).length;
  return Object.entries(SIGNAL_KINDS).map(([signal, kind]) => {
    const leads = trapped
      .filter(
        (r) =>
          r.collapseIteration !== null &&
          (r.firstFired[signal] ?? Number.POSITIVE_INFINITY) <= r.collapseIteration,
      )
      .map((r) => (r.collapseIteration as number) - (r.firstFired[signal] as number));
    return {
      signal,
      kind,
      frozenFired: NOT_CALIBRATABLE_FROM_FROZEN.has(signal) ? null : fired(frozen, signal),
      frozenRuns: frozen.length,
      holdFired: fired(hold, signal),
      holdRuns: hold.length,
      beforeFall: leads.length,
      trappedRuns: trapped.length,
      meanLead: leads.length > 0 ? mean(leads) : null,
    };
  });
}

/** The signals' records (signalRates) as the round report's table. */
export function warningTable(
  frozen: readonly RoundRun[],
  hold: readonly RoundRun[],
  trapped: readonly RoundRun[],
): string {
  const rows = signalRates(frozen, hold, trapped).map((r) => {
    const frozenCell =
      r.frozenFired === null
        ? 'not calibratable from a frozen control'
        : `${r.frozenFired} of ${r.frozenRuns}`;
    return `| ${r.signal} | ${r.kind} | ${frozenCell} | ${r.holdFired} of ${r.holdRuns} | ${r.beforeFall} of ${r.trappedRuns} | ${r.meanLead !== null ? f1(r.meanLead) : '–'} |`;
  });
  return [
    '| signal | kind | fired in frozen runs | fired in holding runs | before the collapse | mean lead (iterations) |\n|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
