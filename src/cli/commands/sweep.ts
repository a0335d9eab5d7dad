// `npm run starpo -- sweep --algos a,b --seeds 4 --out <dir>`: algorithms × seeds as separate
// `train` runs (see sweepRunner.ts: resumable, `--jobs` child processes, changed configs
// refused), with a table per algorithm; `--study echo-trap` runs the echo-trap study instead
// (`--report-only`: its report from the stored runs, nothing run).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ALGORITHM_NAMES, type Config, FIELDS, parseFieldText } from '../../core/config.js';
import { runPath, tableMarkdown } from '../../core/files/sweepBundle.js';
import { STUDY_ARMS, type StudyArm } from '../../core/rl/studyArms.js';
import { parseSeeds as parseSeedList } from '../../core/sweepPlan.js';
import { envSpec } from '../../envs/registry.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { choiceFlag, type FlagSpec, flagHelp, parseFlags } from '../flags.js';
import { runArmsStudy, STUDY_DIRS, STUDY_SEEDS } from '../study/armsStudy.js';
import { runStudy, STUDY_ENVS } from '../study/study.js';
import { runSweep, type SweepRun } from '../sweepRunner.js';
import { baseLookup, resolveTrainConfig } from '../trainConfig.js';
import { TRAIN_FIELD_FLAGS } from './train.js';

const SWEEP_FLAGS: FlagSpec[] = [
  { name: 'out', kind: 'string', help: 'output directory (required)' },
  {
    name: 'algos',
    kind: 'string',
    help: `comma-separated algorithms (default all: ${ALGORITHM_NAMES.join(',')})`,
  },
  { name: 'seeds', kind: 'string', help: 'a count (4 → seeds 1..4) or a comma-separated list (default 2)' },
  { name: 'jobs', kind: 'int', help: 'runs at a time, each in its own process (default 1: in this process)' },
  { name: 'config', kind: 'string', help: 'a JSON file with config fields shared by every run' },
  { name: 'base', kind: 'string', help: 'base model for every run: a checkpoint .json or "random"' },
  { name: 'models', kind: 'string', help: 'directory of the models index (default public/models)' },
  {
    name: 'study',
    kind: 'string',
    help: 'run a named study instead: echo-trap (the arms × seeds 201–212 at the echo-trap preset’s budget) or echo-trap-v1 (the earlier envs × algorithms study, docs/echo-trap-study.md)',
  },
  {
    name: 'arms',
    kind: 'string',
    help: `study: comma-separated arms (default all: ${STUDY_ARMS.join(',')})`,
  },
  { name: 'envs', kind: 'string', help: `study: comma-separated env ids (default ${STUDY_ENVS.join(',')})` },
  {
    name: 'docs',
    kind: 'string',
    help: 'study: the Markdown report to write (default docs/echo-trap-study.md)',
  },
  {
    name: 'bands',
    kind: 'string',
    help: 'study: the playground’s reference-band file to write (default public/study/echo-trap.json)',
  },
  { name: 'ablations', kind: 'bool', help: 'study: include the StarPO-S ablations (default true)' },
  {
    name: 'unmatched',
    kind: 'bool',
    help: 'study: include the paper-style unmatched comparison (default true)',
  },
  {
    name: 'report-only',
    kind: 'bool',
    help: 'study: write the report from the runs stored under --out, judged by today’s detector; run nothing',
  },
];

const FLAGS = [...SWEEP_FLAGS, ...TRAIN_FIELD_FLAGS.filter((f) => f.name !== 'algo' && f.name !== 'seed')];

/** At most this many seeds from a count (a list may name any). */
const MAX_SEED_COUNT = 1000;

function parseSeeds(text: string | undefined): number[] {
  if (text === undefined) return [1, 2];
  try {
    return parseSeedList(text, MAX_SEED_COUNT);
  } catch (err) {
    throw new UsageError(`--${(err as Error).message} (got "${text}")`);
  }
}

function parseAlgos(text: string | undefined): Config['algorithm'][] {
  if (text === undefined) return [...ALGORITHM_NAMES];
  return text.split(',').map((s) => choiceFlag('algorithm', s.trim(), 'algos'));
}

export const sweepCommand: Command = {
  name: 'sweep',
  summary: 'algorithms × seeds as separate runs (resumable, --jobs), with an echo-trap table',
  usage: `usage: npm run starpo -- sweep --out <dir> [--algos a,b] [--seeds 4] [--jobs 2] [config flags]\n\n${flagHelp(FLAGS)}`,
  async run(args, io) {
    const flags = parseFlags(args, FLAGS);
    if (flags.study !== undefined) return studyFromFlags(flags, io);
    if (typeof flags.out !== 'string' || flags.out === '') throw new UsageError('--out <dir> is required');
    const algos = parseAlgos(flags.algos as string | undefined);
    const seeds = parseSeeds(flags.seeds === undefined ? undefined : String(flags.seeds));
    const jobs = Number(flags.jobs ?? 1);
    if (!(jobs >= 1 && jobs <= 16)) throw new UsageError('--jobs must be from 1 to 16');
    const base = flags.base as string | undefined;
    const models = flags.models as string | undefined;
    const runs: SweepRun[] = [];
    for (const algo of algos) {
      for (const seed of seeds) {
        const perRun = { ...flags, algo, seed: String(seed) };
        const config = await resolveTrainConfig(perRun, baseLookup(base, models));
        runs.push({
          preset: 'custom',
          algo,
          seed,
          dir: join(flags.out, runPath('custom', algo, seed)),
          config,
        });
      }
    }
    await mkdir(flags.out, { recursive: true });
    const table = await runSweep(runs, { out: flags.out, jobs, base, models }, io);
    io.stdout.write(tableMarkdown(table));
    return 0;
  },
};

/** What both studies read from the flags alike: envs (checked), jobs, overrides, report-only, the base lookup. */
function commonStudyOptions(
  flags: Record<string, string | number | boolean>,
  defaultEnvs: readonly string[],
) {
  const envs = typeof flags.envs === 'string' ? flags.envs.split(',').map((e) => e.trim()) : [...defaultEnvs];
  for (const env of envs) envSpec(env);
  const base = flags.base as string | undefined;
  const models = flags.models as string | undefined;
  return {
    envs,
    jobs: Number(flags.jobs ?? 1),
    overrides: studyOverrides(flags),
    reportOnly: flags['report-only'] === true,
    base,
    models,
    baseLayer: (env: string) =>
      baseLookup(base, models)(env, typeof flags.size === 'string' ? flags.size : 'nano'),
  };
}

async function studyFromFlags(flags: Record<string, string | number | boolean>, io: CliIo): Promise<number> {
  if (flags.study === 'echo-trap') return armsStudyFromFlags(flags, io);
  if (flags.study !== 'echo-trap-v1')
    throw new UsageError(`--study: unknown study "${String(flags.study)}" (known: echo-trap, echo-trap-v1)`);
  const text = await runStudy(
    {
      ...commonStudyOptions(flags, STUDY_ENVS),
      algos: parseAlgos(flags.algos as string | undefined),
      seeds: parseSeeds(flags.seeds === undefined ? '8' : String(flags.seeds)),
      out: typeof flags.out === 'string' ? flags.out : 'results/echo-trap',
      docs: typeof flags.docs === 'string' ? flags.docs : 'docs/echo-trap-study.md',
      bands: typeof flags.bands === 'string' ? flags.bands : 'public/study/echo-trap.json',
      ablations: flags.ablations !== false,
      unmatched: flags.unmatched !== false,
    },
    io,
  );
  io.stdout.write(text);
  return 0;
}

/** Config flags (other than env/algo/seed) that apply to every run of a study. */
function studyOverrides(flags: Record<string, string | number | boolean>): Partial<Config> {
  const overrides: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const v = flags[f.flag];
    if (v === undefined || f.key === 'env' || f.key === 'algorithm' || f.key === 'seed') continue;
    try {
      overrides[f.key] = parseFieldText(f, String(v));
    } catch (err) {
      throw new UsageError(`--${f.flag}: ${(err as Error).message.replace(`${f.key}: `, '')}`);
    }
  }
  return overrides as Partial<Config>;
}

async function armsStudyFromFlags(
  flags: Record<string, string | number | boolean>,
  io: CliIo,
): Promise<number> {
  const arms =
    typeof flags.arms === 'string'
      ? flags.arms.split(',').map((a) => {
          const arm = a.trim();
          if (!(STUDY_ARMS as readonly string[]).includes(arm))
            throw new UsageError(`--arms: unknown arm "${arm}" (known: ${STUDY_ARMS.join(', ')})`);
          return arm as StudyArm;
        })
      : [...STUDY_ARMS];
  const text = await runArmsStudy(
    {
      ...commonStudyOptions(flags, Object.keys(STUDY_DIRS)),
      arms,
      seeds: flags.seeds === undefined ? STUDY_SEEDS : parseSeeds(String(flags.seeds)),
      ...(typeof flags.out === 'string' ? { out: flags.out } : {}),
      docs: typeof flags.docs === 'string' ? flags.docs : 'docs/echo-trap.md',
    },
    io,
  );
  io.stdout.write(text);
  return 0;
}
