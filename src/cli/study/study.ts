// The echo-trap study (issue 8): for each environment, the six algorithms over N seeds with
// optimizer steps matched (the main comparison) and unmatched (the paper's setting), plus the
// paper's ablations as one-switch variants of StarPO-S; every run is a `train` run directory
// under results/echo-trap/, resumable; then tables and SVG figures in docs/echo-trap.md.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { type Config, formatErrors } from '../../core/config.js';
import { type MetricKey, metricByKey } from '../../core/metrics/keys.js';
import { ABLATIONS, PRESETS, type Preset } from '../../core/presets.js';
import { type BaseLayer, resolveConfig } from '../../core/resolve.js';
import { ALGORITHMS } from '../../core/rl/algorithms.js';
import { envIds } from '../../envs/registry.js';
import type { CliIo } from '../command.js';
import { runSweep, type SweepRun } from '../sweepRunner.js';
import {
  ablationTable,
  comparisonTable,
  earlyWarningTable,
  type LoadedRun,
  loadRun,
  wallTable,
} from './analyze.js';
import { studyBandsOf, writeStudyBands } from './bands.js';
import { discoverRuns, envSlug } from './discover.js';
import { besidePaperSection } from './paper.js';
import { lineChartSvg } from './svg.js';

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

/** Every run of the study, in a stable order. */
export async function planStudy(o: StudyOptions): Promise<(SweepRun & { env: string; variant: string })[]> {
  const runs: (SweepRun & { env: string; variant: string })[] = [];
  for (const [e, env] of o.envs.entries()) {
    const base = await o.baseLayer(env);
    const variants: [string, Config['algorithm'][], Partial<Config>][] = [['matched', [...o.algos], {}]];
    // Paper-style: one epoch of minibatches of 32, so a filtered batch makes fewer steps.
    if (o.unmatched)
      variants.push(['unmatched', [...o.algos], { stepsPerIteration: 0, epochs: 1, minibatch: 32 }]);
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

/** The figures per env: metric and title (log10 where the METRICS table charts it on a log scale). */
const FIGURES: [MetricKey, string][] = [
  ['rollout/successRate', 'success (train, T = 1)'],
  ['rollout/inGroupRewardStd', 'in-group reward std'],
  ['actor/entropy', 'entropy'],
  ['actor/gradNorm', 'gradient norm (log10)'],
  ['reasoning/mi', 'reasoning MI (nats)'],
];

/** Writes the figures of one env (StarPO vs StarPO-S, steps matched); returns their paths. */
async function figures(env: string, runs: readonly LoadedRun[], docsDir: string): Promise<string[]> {
  const dir = join(docsDir, 'figures');
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  const series = ['starpo-ppo', 'starpo-s']
    .map((algo) => ({
      label: algo,
      colour: ALGORITHMS[algo as Config['algorithm']]?.colour ?? '#000',
      runs: runs.filter((r) => r.algo === algo).map((r) => r.rows),
    }))
    .filter((s) => s.runs.length > 0);
  if (series.length === 0) return paths;
  for (const [key, title] of FIGURES) {
    const log = metricByKey.get(key)?.log === true;
    const file = join(dir, `${envSlug(env)}-${key.replace(/\//g, '-')}.svg`);
    await writeFile(file, lineChartSvg(`${env}: ${title}`, key, series, log));
    paths.push(file);
  }
  return paths;
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
  const envs = [...o.envs, ...envIds().filter((e) => !o.envs.includes(e) && found.some((r) => r.env === e))];
  const loaded = (
    await Promise.all(
      all.map((r) => loadRun({ env: r.env, variant: r.variant, algo: r.algo, seed: r.seed, dir: r.dir })),
    )
  ).filter((r): r is LoadedRun => r !== null);
  if (o.bands !== undefined) {
    const configs = new Map(all.map((r) => [r.dir, r.config]));
    await writeStudyBands(
      o.bands,
      studyBandsOf('echo-trap', envs, loaded, (d) => configs.get(d)),
    );
  }
  const docsDir = dirname(o.docs);
  const lines: string[] = [
    '# The echo-trap study',
    '',
    'Generated by `npm run starpo -- sweep --study echo-trap` from the runs in',
    `\`${relative(docsDir, o.out) || '.'}\`; do not edit by hand. ${loaded.length} of ${all.length} planned runs have finished.`,
    '',
    'Question: does StarPO-S prevent the echo trap when compared fairly (optimizer steps matched),',
    'and which part of it does the work? The paper’s own figures are described in',
    '`reference/ragen.md` §3; nothing below is copied from the paper or the secondary note.',
    '',
    'A run counts as an echo trap when its training success rose above its own start and fell from',
    'that peak, each by more than the binomial noise of P × N rollouts over 5-iteration windows, and',
    'gave back at least half the rise, with no verdict in a 5-iteration warm-up (the detector of',
    'DESIGN §6, judged again over the stored rows). "Recovered": success rose again from its low',
    'beyond the noise, past half-way back to the peak. Its calibration on frozen-control runs is',
    'the section "Frozen control and detector calibration".',
    '',
  ];
  for (const env of envs) {
    const envRuns = loaded.filter((r) => r.env === env);
    const c = all.find((r) => r.env === env && r.variant === 'matched' && r.config)?.config;
    lines.push(`## ${env}`, '');
    if (c)
      lines.push(
        `Settings (steps matched): the \`${studyPreset(env).name}\` preset's budget — ${c.groups} × ${c.groupSize} rollouts, ${c.iterations} iterations, lr ${c.lr}, T = ${c.temperature}, ${c.stepsPerIteration} optimizer steps per iteration — with each algorithm's own switches on top.`,
        '',
      );
    const matched = envRuns.filter((r) => r.variant === 'matched');
    const unmatched = envRuns.filter((r) => r.variant === 'unmatched');
    lines.push(
      '### Main comparison: optimizer steps matched',
      '',
      matched.length > 0 ? comparisonTable(matched) : '_No finished runs yet._',
      '',
    );
    if (o.unmatched)
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
  }
  // The detector's calibration (`starpo calibrate`), written beside the study's results.
  try {
    lines.push(
      (await readFile(join(dirname(o.out), 'frozen-control', 'calibration.md'), 'utf8')).trimEnd(),
      '',
    );
  } catch {
    // Not calibrated yet.
  }
  lines.push('## Wall time', '', wallTable(loaded), '');
  // What the runs mean, written by whoever ran them (results/echo-trap/notes.md), kept beside the data.
  try {
    lines.push('## Reading the results', '', await readFile(join(o.out, 'notes.md'), 'utf8'));
  } catch {
    // No notes yet: the tables speak alone.
  }
  let search = '';
  try {
    search = await readFile(join(o.out, 'search-log.md'), 'utf8');
  } catch {
    search = '_No preset search recorded yet (results/echo-trap/search-log.md)._\n';
  }
  lines.push('## Search log', '', search);
  const text = `${lines.join('\n')}\n`;
  await mkdir(docsDir, { recursive: true });
  await writeFile(o.docs, text);
  return text;
}

/** Plans, runs (resumably) and reports the study. */
export async function runStudy(o: StudyOptions, io: CliIo): Promise<string> {
  const runs = await planStudy(o);
  await mkdir(o.out, { recursive: true });
  await runSweep(runs, { out: o.out, jobs: o.jobs, base: o.base, models: o.models }, io);
  return writeStudyReport(runs, o);
}
