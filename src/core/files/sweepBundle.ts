// Sweep results in the CLI's sweep-output format (src/cli/commands/sweep.ts): a sweep
// directory holds <preset>/<algo>/seed-<s>/{config.json, metrics.jsonl, events.jsonl,
// summary.json} and table.json {runs, table}. A *bundle* is that directory as one JSON file —
// the table.json content plus every run's files — which the browser exports and imports, and
// which `starpo sweep-bundle` makes from a CLI sweep directory. Pure: no DOM, no Node.
import { z } from 'zod';
import { type Config, formatErrors } from '../config.js';
import type { MetricRow } from '../metrics/keys.js';
import type { TrainerEvent } from '../rl/trainer.js';
import { mean } from '../stats.js';
import { fileConfig } from './runFile.js';

export const SWEEP_BUNDLE_FORMAT = 'starpo-sweep-bundle';

/** A run's summary.json as `starpo train` writes it (the fields the tables read are required). */
export interface RunSummaryFile {
  echoTrap: boolean;
  peakSuccess: number;
  finalSuccess: number;
  firstWarningLead: number | null;
  collapseIteration?: number | null;
  firstWarningIteration?: number | null;
  recovered?: boolean;
  converged?: boolean;
  completed?: boolean;
  wallSeconds?: number;
  [k: string]: unknown;
}

/** One run of a sweep: its place in the directory and its four files. */
export interface SweepRunFiles {
  /** `<preset>/<algo>/seed-<s>`, as in the CLI's sweep directory. */
  path: string;
  preset: string;
  algo: string;
  seed: number;
  config: Config;
  metrics: MetricRow[];
  events: TrainerEvent[];
  summary: RunSummaryFile;
}

/** table.json's rows (sweepTable below). */
export interface SweepTableRow {
  preset: string;
  algo: string;
  runs: number;
  echoTraps: number;
  meanPeak: number;
  meanFinal: number;
}

/** A sweep axis: a config key (or 'preset') and its values in order. */
export interface SweepAxis {
  key: string;
  values: string[];
}

export interface SweepBundle {
  format: typeof SWEEP_BUNDLE_FORMAT;
  version: 1;
  name: string;
  /** The swept axes (absent in bundles of CLI sweeps: inferred from preset and algorithm). */
  axes?: SweepAxis[];
  /** table.json: every run's summary with preset, algo and seed, and the aggregate table. */
  table: {
    runs: (RunSummaryFile & { preset: string; algo: string; seed: number })[];
    table: SweepTableRow[];
  };
  runs: Omit<SweepRunFiles, 'preset' | 'algo' | 'seed'>[];
}

/** The path of a run in the CLI's sweep layout. */
export const runPath = (preset: string, algo: string, seed: number) => `${preset}/${algo}/seed-${seed}`;

/** What the table reads of a run: its cell and its summary's outcome. */
export type SweepTableRun = Pick<RunSummaryFile, 'echoTrap' | 'peakSuccess' | 'finalSuccess'> & {
  preset: string;
  algo: string;
};

/** Per preset × algorithm aggregates, in run order: table.json's `table`, for the CLI and the browser. */
export function sweepTable(runs: readonly SweepTableRun[]): SweepTableRow[] {
  const groups = new Map<string, SweepTableRun[]>();
  for (const r of runs) {
    const k = `${r.preset}\u0000${r.algo}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()].map((rs) => ({
    preset: rs[0]!.preset,
    algo: rs[0]!.algo,
    runs: rs.length,
    echoTraps: rs.filter((r) => r.echoTrap).length,
    meanPeak: mean(rs.map((r) => r.peakSuccess)),
    meanFinal: mean(rs.map((r) => r.finalSuccess)),
  }));
}

/** The table as Markdown (table.md, and what `starpo sweep` prints). */
export function tableMarkdown(rows: readonly SweepTableRow[]): string {
  const lines = [
    '| preset | algorithm | runs | echo traps | mean peak success | mean final success |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.preset} | ${r.algo} | ${r.runs} | ${r.echoTraps} | ${r.meanPeak.toFixed(3)} | ${r.meanFinal.toFixed(3)} |`,
    );
  return `${lines.join('\n')}\n`;
}

/** The bundle of a sweep's runs. */
export function makeBundle(name: string, runs: readonly SweepRunFiles[], axes?: SweepAxis[]): SweepBundle {
  const tableRuns = runs.map((r) => ({ ...r.summary, preset: r.preset, algo: r.algo, seed: r.seed }));
  return {
    format: SWEEP_BUNDLE_FORMAT,
    version: 1,
    name,
    ...(axes ? { axes } : {}),
    table: { runs: tableRuns, table: sweepTable(tableRuns) },
    runs: runs.map(({ path, config, metrics, events, summary }) => ({
      path,
      config,
      metrics,
      events,
      summary,
    })),
  };
}

const finite = z.number().refine(Number.isFinite, { error: 'must be a finite number' });
const summarySchema = z
  .object({
    echoTrap: z.boolean(),
    peakSuccess: finite,
    finalSuccess: finite,
    firstWarningLead: z.number().int().nullable(),
  })
  .loose();
const bundleSchema = z.object({
  format: z.literal(SWEEP_BUNDLE_FORMAT),
  version: z.literal(1),
  name: z.string().min(1).max(200),
  axes: z
    .array(z.object({ key: z.string(), values: z.array(z.string()).max(64) }))
    .max(2)
    .optional(),
  table: z.object({
    runs: z.array(
      summarySchema.extend({ preset: z.string(), algo: z.string(), seed: z.number().int().min(0) }),
    ),
    table: z.array(z.unknown()),
  }),
  runs: z
    .array(
      z.object({
        path: z.string().regex(/^[^/]+\/[^/]+\/seed-\d+$/, { error: 'must be <preset>/<algo>/seed-<s>' }),
        config: z.unknown(),
        metrics: z.array(z.record(z.string(), z.number().nullable())).max(100_000),
        events: z.array(z.object({ type: z.string(), iteration: z.number().int() }).loose()),
        summary: summarySchema,
      }),
    )
    .min(1)
    .max(4096),
});

export type ParsedBundle =
  | { ok: true; name: string; axes: SweepAxis[]; runs: SweepRunFiles[] }
  | { ok: false; message: string };

/** Validates a bundle (every run's config through core's schema); never throws. */
export function parseBundle(text: string): ParsedBundle {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `not a JSON file (${(err as Error).message})` };
  }
  const r = bundleSchema.safeParse(json);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`);
    return { ok: false, message: `not a sweep bundle: ${issues.join('; ')}` };
  }
  const runs: SweepRunFiles[] = [];
  for (const [i, run] of r.data.runs.entries()) {
    const cfg = fileConfig(run.config);
    if (!cfg.ok) return { ok: false, message: `runs.${i}.config: ${formatErrors(cfg.errors)}` };
    const [preset, algo, seedPart] = run.path.split('/') as [string, string, string];
    const metrics = run.metrics.map((row) => {
      const out: Record<string, number> = {};
      for (const [k, v] of Object.entries(row)) if (v !== null) out[k] = v;
      return out as MetricRow;
    });
    runs.push({
      path: run.path,
      preset,
      algo,
      seed: Number(seedPart.slice(5)),
      config: cfg.config,
      metrics,
      events: run.events as TrainerEvent[],
      summary: run.summary as RunSummaryFile,
    });
  }
  return { ok: true, name: r.data.name, axes: r.data.axes ?? inferAxes(runs), runs };
}

/** Axes of a sweep without recorded axes: the algorithms, and the presets when there are several. */
export function inferAxes(runs: readonly Pick<SweepRunFiles, 'preset' | 'algo'>[]): SweepAxis[] {
  const distinct = (xs: string[]) => [...new Set(xs)];
  const algos = distinct(runs.map((r) => r.algo));
  const presets = distinct(runs.map((r) => r.preset));
  const axes: SweepAxis[] = [{ key: 'algorithm', values: algos }];
  if (presets.length > 1) axes.push({ key: 'preset', values: presets });
  return axes;
}

/** A run's value on an axis, as the axis lists it. */
export function axisValue(run: Pick<SweepRunFiles, 'preset' | 'config'>, axis: SweepAxis): string {
  if (axis.key === 'preset') return run.preset;
  return String(run.config[axis.key as keyof Config]);
}
