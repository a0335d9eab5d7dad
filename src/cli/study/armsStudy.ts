// `npm run starpo -- sweep --study echo-trap`: the study of the arms (arms.ts) at the echo-trap
// preset's budget, one env at a time: plans every arm × seed, trains what is not yet stored
// (resumable, `--jobs` processes) unless `--report-only`, then judges every stored run with
// today's detector and writes the study's section of docs/echo-trap.md (after its marker; the
// pre-registered sections and the round's results above it are left alone).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Config, formatErrors } from '../../core/config.js';
import { type BaseLayer, resolveConfig } from '../../core/resolve.js';
import { STUDY_ARMS, type StudyArm } from '../../core/rl/studyArms.js';
import { mean, signedRank } from '../../core/stats.js';
import { envIds } from '../../envs/registry.js';
import type { CliIo } from '../command.js';
import { runSweep } from '../sweepRunner.js';
import { planArms } from './arms.js';
import { type CalRun, finishedRuns } from './calibrate.js';
import { judgeRun } from './round.js';
import { RESULTS_MARKER, roundReport, STUDY_MARKER, spliceBetween } from './roundDocs.js';

export interface ArmsStudyOptions {
  envs: readonly string[];
  arms: readonly StudyArm[];
  seeds: readonly number[];
  /** Where runs go; default the env's round directory (STUDY_DIRS). */
  out?: string;
  docs: string;
  jobs: number;
  overrides: Partial<Config>;
  reportOnly: boolean;
  base?: string;
  models?: string;
  baseLayer: (env: string) => Promise<BaseLayer | null>;
}

/** The study's seeds (docs/echo-trap.md §4): 201–212. */
export const STUDY_SEEDS: readonly number[] = Array.from({ length: 12 }, (_, i) => 201 + i);

/** Vanilla's config on `env`: the echo-trap preset's budget with the flags' overrides. */
async function vanillaFor(env: string, o: ArmsStudyOptions): Promise<Config> {
  const r = resolveConfig(
    {
      base: await o.baseLayer(env),
      preset: 'echo-trap',
      // The study's runs are made on WASM, like every run of the rounds.
      edits: {
        backend: 'wasm',
        ...o.overrides,
        algorithm: 'starpo-ppo',
        env,
        seed: STUDY_SEEDS[0] as number,
      },
    },
    envIds(),
  );
  if (r.errors.length > 0) throw new Error(`study config for ${env}: ${formatErrors(r.errors)}`);
  return r.values;
}

/**
 * Where each env's study runs live: the round directory whose search chose its cell, with the
 * confirmation's runs as vanilla's and frozen's (`armCell`).
 */
export const STUDY_DIRS: Readonly<Record<string, string>> = {
  'minigrid/DoorKey-5x5': join('results', 'echo-trap', 'round9'),
  'frozenlake/FrozenLake-4x4': join('results', 'echo-trap', 'round10-frozenlake'),
};

const DOORKEY = 'minigrid/DoorKey-5x5';

/**
 * Plans and runs (unless `reportOnly`) the arms on each env, then regenerates every generated
 * section of the report from the stored runs: DoorKey's round and study (sections 5–9) and each
 * other env's round and arms (section 10). Returns the generated Markdown.
 */
export async function runArmsStudy(o: ArmsStudyOptions, io: CliIo): Promise<string> {
  const dirOf = (env: string) => {
    const slug = env.replace(/\//g, '-').toLowerCase();
    return o.out ? join(o.out, slug) : (STUDY_DIRS[env] ?? join(ARMS_OUT, slug));
  };
  if (!o.reportOnly) {
    for (const env of o.envs) {
      const vanilla = await vanillaFor(env, o);
      const plan = planArms(vanilla, o.arms.length > 0 ? o.arms : STUDY_ARMS, o.seeds, dirOf(env));
      await runSweep(plan, { out: dirOf(env), jobs: o.jobs, base: o.base, models: o.models }, io);
    }
  }
  // DoorKey's round and study are sections 5–9; every other env's go under section 10.
  const report = async (env: string) => {
    try {
      return await roundReport(dirOf(env), env === DOORKEY ? undefined : env);
    } catch {
      return [`### ${env}`, '', `No finished runs under \`${dirOf(env)}\` yet.`, ''].join('\n');
    }
  };
  let text = '';
  try {
    text = await readFile(o.docs, 'utf8');
  } catch {
    text = '# The echo trap\n';
  }
  const parts: string[] = [];
  if (o.envs.includes(DOORKEY)) {
    const doorkey = await report(DOORKEY);
    text = spliceBetween(text, RESULTS_MARKER, STUDY_MARKER, doorkey);
    parts.push(doorkey);
  }
  const others = o.envs.filter((e) => e !== DOORKEY);
  if (others.length > 0) {
    const second = [
      STUDY_MARKER,
      '',
      '## 10. The second environment',
      '',
      "The same pre-registered rule, shape and pick on another environment (section 3b), every run judged again here from its stored metrics, and the study's arms where they ran.",
      '',
      ...(await Promise.all(others.map(report))),
    ].join('\n');
    const bandit = existsSync(BANDIT_DIR) && !o.out ? `\n${await banditSection()}` : '';
    text = spliceBetween(text, STUDY_MARKER, '\u0000never', second + bandit);
    parts.push(second + bandit);
  }
  await writeFile(o.docs, text);
  return `${parts.join('\n')}\n`;
}

/** Where the Bandit re-measurement's runs live (docs/echo-trap.md, "The re-measurement"). */
export const BANDIT_DIR = join('results', 'echo-trap', 'bandit-shared');

/** The analysis's prediction per arm: above ('risky') or below ('safe') the frozen control. */
const BANDIT_PREDICTIONS: readonly [string, 'risky' | 'safe'][] = [
  ['starpo-grpo', 'safe'],
  ['starpo-s', 'risky'],
  ['starpo-ppo', 'risky'],
  ['starpo-drgrpo', 'risky'],
];

const last10 = (run: CalRun) => mean(run.rows.slice(-10).map((r) => r['rollout/successRate'] as number));

/**
 * Where each run ended: on the risky arm (last 10 iterations ≥ 0.8), on the safe one (≤ 0.2), or
 * between. Descriptive, not pre-registered: a learner on the Bandit ends committed to one arm, so
 * a mean over seeds hides that.
 */
function endings(runs: readonly CalRun[]): string {
  const risky = runs.filter((r) => last10(r) >= 0.8).length;
  const safe = runs.filter((r) => last10(r) <= 0.2).length;
  return `${risky} / ${safe} / ${runs.length - risky - safe}`;
}

/** The detector's verdicts, judged again from the stored rows. */
const trapped = (runs: readonly CalRun[]) =>
  `${runs.filter((r) => judgeRun('bandit', r).trapped).length} of ${runs.length}`;

/**
 * The Bandit re-measurement judged as pre-registered: each arm's mean success (choosing the risky
 * arm) over its last 10 iterations against the frozen control on the same seeds, one-sided
 * signed-rank in the predicted direction, p < 0.05, with the detector's verdicts beside it. Arms
 * with no finished run are said to be so.
 */
export async function banditSection(dir = BANDIT_DIR): Promise<string> {
  const frozen = new Map((await finishedRuns(join(dir, 'frozen'), dir)).map((r) => [r.config.seed, r]));
  const learners = await finishedRuns(join(dir, 'learners'), dir);
  const rows = BANDIT_PREDICTIONS.map(([algo, predicted]) => {
    const runs = learners.filter((r) => r.config.algorithm === algo && frozen.has(r.config.seed));
    if (runs.length === 0) return `| ${algo} | ${predicted} | 0 | – | – | – | not run yet | – | – |`;
    const diffs = runs.map((r) => last10(r) - last10(frozen.get(r.config.seed) as CalRun));
    const t = signedRank(diffs);
    const p = predicted === 'risky' ? t.pGreater : t.pLess;
    const against = predicted === 'risky' ? t.pLess : t.pGreater;
    const verdict =
      p < 0.05
        ? 'as predicted'
        : against < 0.05
          ? `against the prediction (p ${against.toFixed(3)} the other way)`
          : 'not separated from the control';
    return `| ${algo} | ${predicted} | ${runs.length} | ${mean(runs.map(last10)).toFixed(2)} | ${mean(diffs) >= 0 ? '+' : ''}${mean(diffs).toFixed(2)} | ${p.toFixed(3)} | ${runs.length < 8 ? `${runs.length} of 8 seeds run: not judged yet` : verdict} | ${endings(runs)} | ${trapped(runs)} |`;
  });
  const f = [...frozen.values()];
  const frozenLast10 = f.length ? mean(f.map(last10)).toFixed(2) : '–';
  return [
    '## 11. Bandit under shared streams, re-measured',
    '',
    `Pre-registered in the Bandit section above; seeds 201–208, judged from the stored runs in \`${dir}\`. Success is choosing the risky arm. The frozen control's last 10 iterations: ${frozenLast10} (${f.length} runs).`,
    '',
    '| arm | predicted | seeds | last 10 | − frozen (paired mean) | signed-rank p (predicted side) | verdict | ended risky / safe / between | echo trap (detector) |',
    '|---|---|---|---|---|---|---|---|---|',
    `| frozen | – | ${f.length} | ${frozenLast10} | – | – | the control | ${endings(f)} | ${trapped(f)} |`,
    ...rows,
    '',
    '"Ended risky / safe / between": runs whose last 10 iterations chose the risky arm ≥ 80%, ≤ 20%, or in between (descriptive, not pre-registered). The echo-trap column is the detector judged again from the stored rows.',
    '',
  ].join('\n');
}

/** Where a study's runs go by default. */
export const ARMS_OUT = join('results', 'echo-trap', 'study');
