// Calibrating the echo-trap detector from stored runs, without rerunning anything (issue 18):
// its false-positive rate on frozen-control runs (lr 0: the policy never leaves its base, so
// every "trap" is sampling noise), the null statistic's spread, the batch's overdispersion
// against the binomial, a resampled null for finer rates than 16 runs allow, each signal's
// firing rate on frozen runs, and its recall and lead time on hand-labelled study runs that rose
// and fell. Everything is read from run directories (config.json, metrics.jsonl, summary.json);
// the detector is core/metrics/detector.ts, the one the trainer, the summary and the study use.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Config } from '../../core/config.js';
import {
  DEFAULT_DETECTOR,
  DETECTOR_SIGNALS,
  type DetectorOptions,
  detectorOptionsFor,
  detectRun,
  EchoTrapDetector,
  NOT_CALIBRATABLE_FROM_FROZEN,
  SIGNAL_KINDS,
} from '../../core/metrics/detector.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import { Rng } from '../../core/rng.js';
import { mean } from '../../core/stats.js';

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

async function exists(path: string): Promise<boolean> {
  try {
    await readFile(path);
    return true;
  } catch {
    return false;
  }
}

/** Every directory under `root` that holds config.json and metrics.jsonl, sorted by name. */
export async function findRunDirs(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    if ((await exists(join(dir, 'config.json'))) && (await exists(join(dir, 'metrics.jsonl')))) out.push(dir);
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory() && e.name !== 'checkpoints') await walk(join(dir, e.name));
  };
  await walk(root);
  return out.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** Reads one run directory (null without config.json or metrics.jsonl). */
export async function loadCalRun(dir: string, root: string): Promise<CalRun | null> {
  try {
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Config;
    const rows = (await readFile(join(dir, 'metrics.jsonl'), 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as MetricRow)
      .sort((a, b) => a.iteration - b.iteration);
    let stored: CalRun['stored'];
    try {
      stored = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    } catch {
      stored = undefined;
    }
    return { name: relative(root, dir) || '.', dir, config, rows, stored };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Whether a stored run has all the rows it planned (a run still going, or cut off, has fewer). */
export const isFinished = (run: CalRun): boolean => run.rows.length >= run.config.iterations;

/** Every finished run under `dir`, named relative to `root`, sorted by directory name. */
export async function finishedRuns(dir: string, root: string): Promise<CalRun[]> {
  const runs = await Promise.all((await findRunDirs(dir)).map((d) => loadCalRun(d, root)));
  return runs.filter((r): r is CalRun => r !== null && isFinished(r));
}

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
  let flagged = 0;
  for (let k = 0; k < draws; k++) {
    const d = new EchoTrapDetector(options);
    for (let i = 0; i < length; i++)
      d.update({ iteration: i, 'rollout/successRate': pool[rng.int(0, pool.length)] as number });
    if (d.summary().echoTrap) flagged++;
  }
  return flagged / draws;
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
  let flagged = 0;
  for (let k = 0; k < draws; k++) {
    const d = new EchoTrapDetector({ ...options, rollouts: n });
    for (let i = 0; i < length; i++) {
      let hits = 0;
      for (let j = 0; j < n; j++) hits += rng.float() < p ? 1 : 0;
      d.update({ iteration: i, 'rollout/successRate': hits / n });
    }
    if (d.summary().echoTrap) flagged++;
  }
  return flagged / draws;
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

/** Whether a frozen run's final checkpoint holds its base model's policy, byte for byte. */
export async function policyUnchanged(dir: string, base: string): Promise<boolean | null> {
  try {
    const ck = JSON.parse(await readFile(join(dir, 'checkpoints', 'final.json'), 'utf8'));
    const b = JSON.parse(await readFile(base, 'utf8'));
    const ckBin = await readFile(join(dir, 'checkpoints', 'final.bin'));
    const bBin = await readFile(base.replace(/\.json$/, '.bin'));
    const tensors = (j: { policy: { tensors: { offset: number; length: number }[] } }) => j.policy.tensors;
    if (JSON.stringify(tensors(ck)) !== JSON.stringify(tensors(b))) return false;
    const end = Math.max(...tensors(b).map((t) => t.offset + t.length)) * 4;
    return ckBin.subarray(0, end).equals(bBin.subarray(0, end));
  } catch {
    return null; // checkpoints are not committed (results/**/checkpoints is ignored)
  }
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
  const signals: SignalRate[] = DETECTOR_SIGNALS.map((signal) => {
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
  const grid: Calibration['grid'] = [];
  for (const window of [3, 5]) {
    for (const z of [2.5, 3, 3.5]) {
      const o = { ...given, window, warmup: 5, z };
      grid.push({
        window,
        warmup: 5,
        z,
        frozenFp: input.frozen.filter((r) => detectRun(r.config, r.rows, o).summary().echoTrap).length,
        resampledFp: resampledNullRate(pool, length, Math.min(draws, 1000), { ...o, rollouts: n }, 7),
        recall: positives.length
          ? input.labelled.filter(
              ({ run, label }) =>
                label.label === 'rise-and-fall' && detectRun(run.config, run.rows, o).summary().echoTrap,
            ).length
          : 0,
      });
    }
  }
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

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : x > 0 ? '∞' : '–');
const at = (x: number | null | undefined) => (x === undefined ? '?' : x === null ? 'no' : `yes (${x})`);

/** The calibration as the Markdown section of docs/echo-trap.md. */
export function calibrationMarkdown(c: Calibration, notes = ''): string {
  const o = c.options;
  const n = o.rollouts;
  const win = o.window * n;
  const checked = c.unchanged.filter((u) => u !== null);
  const lines: string[] = [
    '## Frozen control and detector calibration',
    '',
    'Generated by `npm run starpo -- calibrate` from the runs in `results/frozen-control` and the',
    'hand-labelled study runs of `results/frozen-control/collapses.json`; do not edit by hand.',
    '',
    `**The detector** (core/metrics/detector.ts; the trainer, the run summary, the live banner and the study all use it). Training success is averaged over windows of ${o.window} iterations. The run's start is the mean over the first ${o.warmup} iterations (the warm-up: no verdict before it, and a peak counts only from a window that begins after it). A collapse needs, at some iteration, (a) the peak window above the start and (b) the current window below the peak, each by more than ${o.z} standard errors of the difference, and (c) the current window at or below half-way between start and peak. The standard error is the two-proportion binomial one with the pooled rate, σ = sqrt(p̄(1 − p̄)(1/n₁ + 1/n₂)), n = iterations × P × N rollouts (here ${n} per iteration, so ${win} per window). Near success 1 the binomial σ is tiny, so (c) is what keeps a converged run's dip from reading as a collapse. The binomial treats the ${n} rollouts as independent; they are not (a group's rollouts share a start state), and the dispersion below measures by how much. The peak is the largest of many windows, so z is set by the frozen runs' null statistic, not by a normal table.`,
    '',
    `**Frozen control.** The echo-trap preset (DoorKey-5x5, starpo-ppo, 4 × 8 rollouts, 30 iterations, 4 optimizer steps per iteration, T 0.7, the nano base) with lr 0, seeds ${c.frozen.map((f) => f.seed).join(', ')}, WASM, at commit ${c.commits.length > 0 ? c.commits.map((s) => `\`${s.slice(0, 7)}\``).join(', ') : '(not recorded)'}. With lr 0 the policy stays at its base: KL to the reference and approx KL are exactly 0 in every row${checked.length > 0 ? `, and the final checkpoint's policy equals the base model byte for byte in ${checked.filter(Boolean).length} of ${checked.length} runs checked` : ''}; only the critic learns. Every "trap" on these runs is sampling noise.`,
    '',
    '| run | seed | iterations | start | peak (window) | final | null statistic z* | collapse (this detector) | collapse (detector at run time) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...c.frozen.map(
      (f) =>
        `| ${f.name} | ${f.seed} | ${f.iterations} | ${f2(f.start)} | ${f2(f.peak)} | ${f2(f.final)} | ${f2(f.collapseZ)} | ${at(f.collapseIteration)} | ${at(f.storedCollapse)} |`,
    ),
    '',
    `**False positives: ${c.falsePositives} of ${c.frozen.length}** frozen runs flagged at z = ${o.z}${c.storedFalsePositives !== null ? ` (the detector at run time — smoothed success at half an EMA peak of 0.2 — flagged ${c.storedFalsePositives} of ${c.frozen.length})` : ''}. The null statistic z* (the largest z at which a run would be flagged) has median ${f2(c.collapseZ.median)}, second-largest ${f2(c.collapseZ.second)} and largest ${f2(c.collapseZ.max)}: any z above the second-largest keeps the frozen rate at ≤ 1 of ${c.frozen.length}. Resampling the ${c.frozen.reduce((a, f) => a + f.iterations, 0)} frozen batches into ${c.draws} null runs of the same length gives a false-positive rate of ${(100 * c.resampledNull).toFixed(1)}% per run; ${c.draws} binomial null runs (independent rollouts at the frozen mean ${f2(c.dispersion.pooledSuccess)}) give ${(100 * c.binomialNull).toFixed(1)}%.`,
    '',
    `**Dispersion.** The frozen batches vary ${f2(c.dispersion.pooled)}× as much as the binomial p̄(1 − p̄)/${n} (per run ${f2(Math.min(...c.dispersion.perRun))}–${f2(Math.max(...c.dispersion.perRun))}): the binomial σ is ${c.dispersion.pooled > 1 ? `too small by about √${f2(c.dispersion.pooled)} = ${f2(Math.sqrt(c.dispersion.pooled))}` : 'not too small'} for this preset. The detector keeps the binomial σ (dispersion ${o.dispersion}) and lets z absorb the rest, so the same z is a different margin for another env or batch; \`dispersion\` in the detector's options is the knob for it.`,
    '',
    `**Stationarity.** Over the frozen runs, success in the warm-up averaged ${c.startDrift.mean >= 0 ? '+' : '−'}${Math.abs(c.startDrift.mean).toFixed(3)} ± ${c.startDrift.se.toFixed(3)} (standard error over runs) against the rest of the run. A fixed policy's success should not drift; a start above the rest makes a spurious rise rarer and a spurious fall likelier, and the rule needs both.`,
    '',
    '### Each signal on frozen runs, and before collapses',
    '',
    `| signal | kind | fired in frozen runs (of ${c.frozen.length}) | at run time (old detector) | fired before a flagged collapse (of ${c.recall.flagged}) | mean lead (iterations) |`,
    '|---|---|---|---|---|---|',
    ...c.signals.map(
      (s) =>
        `| ${s.signal} | ${s.kind} | ${NOT_CALIBRATABLE_FROM_FROZEN.has(s.signal) ? 'not calibratable from a frozen control' : s.frozenFired} | ${NOT_CALIBRATABLE_FROM_FROZEN.has(s.signal) ? '–' : (s.storedFrozenFired ?? '?')} | ${s.kind === 'warning' || s.kind === 'context' ? s.beforeCollapse : '–'} | ${s.meanLead === null ? '–' : s.meanLead.toFixed(1)} |`,
    ),
    '',
    '### Recall and lead time on collapses',
    '',
    `Study runs labelled by hand from their raw success curves (the reason is written beside each; labels do not look at the detector): **rise-and-fall** is the echo trap's shape, **fall-without-rise** a crash or slow decline from the start (not an echo trap by (a), listed for what the detector says), **held** learned, converged or stayed flat, **ambiguous** is left out of the rates.`,
    '',
    '| run | label | why | start | peak (window, iteration) | final | z* | flagged (iteration) | flagged at run time | first warning |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...c.collapses.map(
      (r) =>
        `| ${r.run} | ${r.label} | ${r.why} | ${f2(r.start)} | ${f2(r.peak)} (${r.peakIteration}) | ${f2(r.final)} | ${f2(r.collapseZ)} | ${r.flagged ? `yes (${r.collapseIteration})` : 'no'} | ${r.storedFlagged === undefined ? '?' : r.storedFlagged ? 'yes' : 'no'} | ${r.firstWarningIteration ?? '–'} |`,
    ),
    '',
    `**Recall: ${c.recall.flagged} of ${c.recall.of}** rise-and-fall runs flagged; ${c.heldFlagged.flagged} of ${c.heldFlagged.of} held runs flagged. ${c.delays.length > 0 ? `The verdict came ${c.delays.join(', ')} iterations after the peak window ended (mean ${mean(c.delays).toFixed(1)}).` : ''} ${c.leads.length > 0 ? `A warning came before the verdict in ${c.leads.length} of ${c.recall.flagged} (${c.leads.join(', ')} iterations ahead; mean ${mean(c.leads).toFixed(1)}); read each lead beside the signal's rate on frozen runs above.` : 'No warning came before a flagged collapse.'} These are the only real collapses stored: too few to put a confidence interval worth the name on the recall.`,
    '',
    '### Sensitivity',
    '',
    `The defaults (window ${o.window}, warm-up ${o.warmup}, z ${o.z}) beside neighbours; frozen FP counts the ${c.frozen.length} frozen runs, resampled FP ${Math.min(c.draws, 1000)} resampled null runs, recall the ${c.recall.of} rise-and-fall runs.`,
    '',
    '| window | warm-up | z | frozen FP | resampled FP | recall |',
    '|---|---|---|---|---|---|',
    ...c.grid.map(
      (g) =>
        `| ${g.window} | ${g.warmup} | ${g.z} | ${g.frozenFp}/${c.frozen.length} | ${(100 * g.resampledFp).toFixed(1)}% | ${g.recall}/${c.recall.of} |`,
    ),
    '',
  ];
  if (notes.trim() !== '') lines.push(notes.trim(), '');
  return `${lines.join('\n')}\n`;
}

/** Replaces (or inserts before `## Wall time`, else appends) the calibration section of a report. */
export function spliceSection(doc: string, section: string): string {
  const heading = '## Frozen control and detector calibration';
  const start = doc.indexOf(`${heading}\n`);
  if (start >= 0) {
    const rest = doc.slice(start + heading.length);
    const next = rest.search(/\n## /);
    const end = next < 0 ? doc.length : start + heading.length + next + 1;
    return doc.slice(0, start) + section + doc.slice(end);
  }
  const wall = doc.indexOf('\n## Wall time\n');
  if (wall >= 0) return `${doc.slice(0, wall + 1)}${section}${doc.slice(wall + 1)}`;
  return `${doc.trimEnd()}\n\n${section}`;
}
