// The echo-trap study (issue 8): for each environment, the six algorithms over N seeds with
// optimizer steps matched (the main comparison) and unmatched (the paper's setting), plus the
// paper's ablations as one-switch variants of StarPO-S; every run is a `train` run directory
// under results/echo-trap/, resumable; then tables and SVG figures in docs/echo-trap.md (each env's
// section here; the opening, the figures and the closing sections in reportSections.ts).
// `--report-only` writes the report from the stored runs alone: nothing is planned or trained,
// every run is judged again by today's detector (the report's tables and the results directory's
// table.json), and where a stored config differs from what the study would plan today the report
// says so.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { type Config, defaultConfig, formatErrors } from '../../core/config.js';
import { ABLATIONS, PRESETS, type Preset } from '../../core/presets.js';
import { type BaseLayer, resolveConfig } from '../../core/resolve.js';
import { envIds } from '../../envs/registry.js';
import type { CliIo } from '../command.js';
import {
  completeStoredConfig,
  type RunResult,
  runSweep,
  type SweepRun,
  writeSweepTable,
} from '../sweepRunner.js';
import { ablationTable, comparisonTable, earlyWarningTable, type LoadedRun, loadRun } from './analyze.js';
import { studyBandsOf, writeStudyBands } from './bands.js';
import { discoverRuns, envSlug, type FoundRun } from './discover.js';
import { besidePaperSection } from './paper.js';
import { closingSections, figures, reportOpening } from './reportSections.js';

export const STUDY_ENVS = ['minigrid/DoorKey-5x5', 'webshop/lite'] as const;

export interface StudyOptions {
  envs: readonly string[];
  algos: readonly Config['algorithm'][];
  seeds: readonly number[];
  /** Results directory (results/echo-trap). */
  out: string;
  /** The Markdown report (docs/echo-trap.md); figures go beside it in figures/. */
  docs: string;
  jobs: number;
  /** Overrides for every run (from flags), applied last. */
  overrides: Partial<Config>;
  ablations: boolean;
  unmatched: boolean;
  base?: string;
  models?: string;
  /** The base model's layer per env (its episode settings and context; null: untrained). */
  baseLayer: (env: string) => Promise<BaseLayer | null>;
  /** The playground's reference-band file (public/study/echo-trap.json); none when absent. */
  bands?: string;
  /** Report the stored runs only: plan and train nothing (`--report-only`). */
  reportOnly?: boolean;
}

/**
 * The preset whose budget an env's study runs use: the env's own vanilla-StarPO preset where it
 * has one (RAGEN's Bandit, FrozenLake and Sokoban: their batch, learning rate and temperature),
 * else the echo-trap preset (DoorKey's measured setting, applied to every other env).
 */
export function studyPreset(env: string): Preset {
  const own = Object.values(PRESETS).find(
    (p) => p.algorithm === 'starpo-ppo' && p.overrides.env === env && p.name !== 'echo-trap',
  );
  return own ?? (PRESETS['echo-trap'] as Preset);
}

function configFor(
  env: string,
  algo: Config['algorithm'],
  seed: number,
  extra: Partial<Config>,
  base: BaseLayer | null,
  o: StudyOptions,
): Config {
  const r = resolveConfig(
    { base, preset: studyPreset(env).name, edits: { ...extra, ...o.overrides, algorithm: algo, seed, env } },
    envIds(),
  );
  if (r.errors.length > 0) throw new Error(`study config for ${env} ${algo}: ${formatErrors(r.errors)}`);
  return r.values;
}

/** Paper-style: one epoch of minibatches of 32, so a filtered batch makes fewer steps. */
const UNMATCHED: Partial<Config> = { stepsPerIteration: 0, epochs: 1, minibatch: 32 };

/** A variant's overrides on the env's preset, by its directory name; undefined for an unknown one. */
export function variantOverrides(variant: string): Partial<Config> | undefined {
  if (variant === 'matched') return {};
  if (variant === 'unmatched') return UNMATCHED;
  return ABLATIONS.find((a) => `ablation-${a.name}` === variant)?.overrides;
}

/** Every run of the study, in a stable order. */
export async function planStudy(o: StudyOptions): Promise<(SweepRun & { env: string; variant: string })[]> {
  const runs: (SweepRun & { env: string; variant: string })[] = [];
  for (const [e, env] of o.envs.entries()) {
    const base = await o.baseLayer(env);
    const variants: [string, Config['algorithm'][], Partial<Config>][] = [['matched', [...o.algos], {}]];
    if (o.unmatched) variants.push(['unmatched', [...o.algos], UNMATCHED]);
    if (o.ablations && e === 0) {
      for (const a of ABLATIONS) variants.push([`ablation-${a.name}`, ['starpo-s'], a.overrides]);
    }
    for (const [variant, algos, extra] of variants) {
      for (const algo of algos) {
        for (const seed of o.seeds) {
          const config = configFor(env, algo, seed, extra, base, o);
          runs.push({
            env,
            variant,
            preset: variant,
            algo,
            seed,
            config,
            dir: join(o.out, envSlug(env), variant, algo, `seed-${seed}`),
          });
        }
      }
    }
  }
  return runs;
}

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * Where an env's stored runs differ from the configs the study would plan for the same cells
 * today (this invocation's overrides included): one clause per field, stored and planned value,
 * with the count of runs, then the fields their config.json lacks (read at today's defaults);
 * '' when every stored run matches and lacks nothing.
 */
export async function storedConfigDrift(
  env: string,
  runs: readonly FoundRun[],
  o: StudyOptions,
): Promise<string> {
  const mine = runs.filter((r) => r.env === env && r.config !== undefined);
  if (mine.length === 0) return '';
  const base = await o.baseLayer(env);
  const counts = new Map<string, { key: string; stored: string; today: string; n: number }>();
  let compared = 0;
  for (const r of mine) {
    const extra = variantOverrides(r.variant);
    if (extra === undefined) continue;
    let today: Config;
    try {
      today = configFor(env, r.algo as Config['algorithm'], r.seed, extra, base, o);
    } catch {
      continue; // a cell today's study cannot plan: nothing to compare with
    }
    compared++;
    const stored = completeStoredConfig(r.config as unknown as Record<string, unknown>);
    const now = today as unknown as Record<string, unknown>;
    for (const key of Object.keys(now)) {
      if (JSON.stringify(stored[key]) === JSON.stringify(now[key])) continue;
      const c = { key, stored: shown(stored[key]), today: shown(now[key]), n: 0 };
      const id = `${c.key}\u0000${c.stored}\u0000${c.today}`;
      const seen = counts.get(id) ?? c;
      seen.n++;
      counts.set(id, seen);
    }
  }
  const defaults = defaultConfig() as unknown as Record<string, unknown>;
  const added = new Map<string, number>();
  for (const r of mine) for (const k of r.added ?? []) added.set(k, (added.get(k) ?? 0) + 1);
  const out: string[] = [];
  if (counts.size > 0) {
    const clauses = [...counts.values()].map(
      (c) => `\`${c.key}\` ${c.stored} where today's is ${c.today} (${c.n} of ${compared})`,
    );
    out.push(
      `Stored configs beside what today's study would plan for the same cells: ${clauses.join('; ')}. These runs are reported as they ran; rerunning a cell would train it afresh under today's config.`,
    );
  }
  if (added.size > 0) {
    const clauses = [...added].map(([k, n]) => `\`${k}\` ${shown(defaults[k])} (${n} of ${mine.length})`);
    out.push(
      `Fields added after these runs were made, read at today's default: ${clauses.join('; ')}; a default is not necessarily what the code of the time did.`,
    );
  }
  return out.join(' ');
}

/**
 * One env's section: its settings (steps matched), where its stored configs differ from today's
 * plan, the comparison tables (steps matched, and not matched where run), early warning, the
 * ablations, the paper beside it, and its figures.
 */
async function envSection(
  env: string,
  o: StudyOptions,
  all: readonly { env: string; variant: string; config?: Config }[],
  found: readonly FoundRun[],
  loaded: readonly LoadedRun[],
  docsDir: string,
): Promise<string[]> {
  const lines: string[] = [];
  const envRuns = loaded.filter((r) => r.env === env);
  const c = all.find((r) => r.env === env && r.variant === 'matched' && r.config)?.config;
  lines.push(`## ${env}`, '');
  if (c)
    lines.push(
      `Settings (steps matched): the \`${studyPreset(env).name}\` preset's budget — ${c.groups} × ${c.groupSize} rollouts, ${c.iterations} iterations, lr ${c.lr}, T = ${c.temperature}, ${c.stepsPerIteration} optimizer steps per iteration — with each algorithm's own switches on top.`,
      '',
    );
  const drift = await storedConfigDrift(env, found, o);
  if (drift !== '') lines.push(drift, '');
  const matched = envRuns.filter((r) => r.variant === 'matched');
  const unmatched = envRuns.filter((r) => r.variant === 'unmatched');
  lines.push(
    '### Main comparison: optimizer steps matched',
    '',
    matched.length > 0 ? comparisonTable(matched) : '_No finished runs yet._',
    '',
  );
  // A report of the stored runs shows the paper-style table only where such runs are stored.
  if (o.unmatched && (!o.reportOnly || unmatched.length > 0))
    lines.push(
      '### Paper-style: steps not matched',
      '',
      unmatched.length > 0 ? comparisonTable(unmatched) : '_No finished runs yet._',
      '',
    );
  lines.push('### Early warning', '', earlyWarningTable([...matched, ...unmatched]), '');
  const ablations = envRuns.filter((r) => r.variant.startsWith('ablation-'));
  if (ablations.length > 0)
    lines.push('### Ablations of StarPO-S (steps matched)', '', ablationTable(ablations), '');
  const beside = besidePaperSection(env, matched);
  if (beside !== '') lines.push(beside);
  for (const f of await figures(env, matched, docsDir)) lines.push(`![${f}](${relative(docsDir, f)})`);
  lines.push('');
  return lines;
}

/**
 * Loads every finished run — this invocation's and any already in the results directory for
 * other envs — and writes docs/echo-trap.md with its tables and figures (and the band file).
 */
export async function writeStudyReport(
  runs: readonly (SweepRun & { env: string; variant: string })[],
  o: StudyOptions,
): Promise<string> {
  const planned = new Set(runs.map((r) => r.dir));
  const found = (await discoverRuns(o.out, envIds())).filter((r) => !planned.has(r.dir));
  const all = [...runs, ...found];
  // A report of the stored runs alone leaves out the envs that have none (and names them).
  const envs = [
    ...o.envs.filter((e) => !o.reportOnly || found.some((r) => r.env === e)),
    ...envIds().filter((e) => !o.envs.includes(e) && found.some((r) => r.env === e)),
  ];
  const missing = o.reportOnly ? o.envs.filter((e) => !envs.includes(e)) : [];
  const loaded = (
    await Promise.all(
      all.map((r) => loadRun({ env: r.env, variant: r.variant, algo: r.algo, seed: r.seed, dir: r.dir })),
    )
  ).filter((r): r is LoadedRun => r !== null);
  // With nothing run, the results directory's table.json and table.md list every stored run with
  // today's verdict (its summary.json's fields, the detector's over them), `<env>/<variant>` as
  // its preset, so each run's path is the sweep layout's `<preset>/<algo>/seed-<n>`.
  if (o.reportOnly && loaded.length > 0)
    await writeSweepTable(
      o.out,
      loaded.map(
        (r): RunResult => ({
          ...r.stored,
          ...r.judged,
          preset: `${envSlug(r.env)}/${r.variant}`,
          algo: r.algo,
          seed: r.seed,
        }),
      ),
    );
  if (o.bands !== undefined) {
    const configs = new Map(all.map((r) => [r.dir, r.config]));
    await writeStudyBands(
      o.bands,
      studyBandsOf('echo-trap', envs, loaded, (d) => configs.get(d)),
    );
  }
  const docsDir = dirname(o.docs);
  const where = `\`${relative(docsDir, o.out) || '.'}\``;
  const reportOnly = o.reportOnly === true;
  const lines = reportOpening({ reportOnly, where, loaded, planned: all.length, missing });
  for (const env of envs) lines.push(...(await envSection(env, o, all, found, loaded, docsDir)));
  lines.push(...(await closingSections(o.out, loaded)));
  const text = `${lines.join('\n')}\n`;
  await mkdir(docsDir, { recursive: true });
  await writeFile(o.docs, text);
  return text;
}

/** Plans, runs (resumably) and reports the study; with `reportOnly`, reports the stored runs alone. */
export async function runStudy(o: StudyOptions, io: CliIo): Promise<string> {
  if (o.reportOnly) {
    io.stderr.write(`study: report only, from the runs stored in ${o.out}; nothing is run\n`);
    return writeStudyReport([], o);
  }
  const runs = await planStudy(o);
  await mkdir(o.out, { recursive: true });
  await runSweep(runs, { out: o.out, jobs: o.jobs, base: o.base, models: o.models }, io);
  return writeStudyReport(runs, o);
}
