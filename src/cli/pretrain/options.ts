// What `pretrain` is asked to do: its own options as a table (cli/optionTable.ts), the episode
// settings, seed and backend as config fields (the field table, through fieldFlags.ts), the
// flags and usage text made from both, and the plan read and checked from them, with every
// error naming its flag.
import { type Config, completeConfig, formatErrors } from '../../core/config.js';
import { MODEL_PRESETS, type ModelSize } from '../../core/model/config.js';
import { POSITION_INIT_NAMES } from '../../core/model/positionInit.js';
import { EPISODE_KEYS, type EpisodeSettings, episodeSettings } from '../../core/resolve.js';
import { envSpec } from '../../envs/registry.js';
import { UsageError } from '../command.js';
import { fieldFlag, fieldsOf, fieldValues, flagErrors } from '../fieldFlags.js';
import { type FlagSpec, type FlagValues, flagHelp } from '../flags.js';
import { type OptionSpec, type OptionValues, optionFlags, readOptions } from '../optionTable.js';

/** Config fields pretrain takes as flags: the episode settings, the seed and the backend. */
const SETTING_FIELDS = fieldsOf([...EPISODE_KEYS, 'seed', 'backend']);

// biome-ignore format: one row per option reads as a table
const OPTIONS = {
  episodes: { flag: 'episodes', kind: 'int', min: 1, max: 100_000, default: 1500, help: 'expert episodes to learn from' },
  noise: { flag: 'noise', kind: 'number', min: 0, max: 1, default: 0.3, help: 'share of noisy demonstration turns' },
  steps: { flag: 'steps', kind: 'int', min: 1, max: 1_000_000, default: 1500, help: 'SFT optimizer steps' },
  batch: { flag: 'batch', kind: 'int', min: 1, max: 1024, default: 16, help: 'sequences per SFT step' },
  lr: { flag: 'lr', kind: 'number', min: 0, max: 1, default: 1e-3, help: 'Adam learning rate' },
  warmup: { flag: 'warmup', kind: 'int', min: 0, max: 1_000_000, default: 0, help: 'steps of linear learning-rate warm-up' },
  drills: { flag: 'drills', kind: 'int', min: 0, max: 1_000_000, default: 0, help: 'copy drills to make from the demonstrations’ texts (0: none; see core/sft/sft.ts copyDrills)' },
  positionInit: { flag: 'position-init', kind: 'choice', options: POSITION_INIT_NAMES, default: 'random', help: 'random (normal, std 0.02); sinusoid: the position table starts as sinusoids; prevtok: sinusoids and a previous-token head in layer 0 (core/model/positionInit.ts); prevtok2: that and a second head two tokens back' },
  openings: { flag: 'openings', kind: 'int', min: 0, max: 1_000_000, default: 0, help: 'extra expert episodes cut after --opening-turns turns, trained on with the drills' },
  openingTurns: { flag: 'opening-turns', kind: 'int', min: 1, max: 50, default: 2, help: 'turns an opening keeps: 1 the search alone, 2 search and pick' },
  openingSkip: { flag: 'opening-skip', kind: 'int', min: 0, max: 49, default: 0, help: "an opening's first turns left out of training (below --opening-turns)" },
  drillSteps: { flag: 'drill-steps', kind: 'int', min: 0, max: 1_000_000, default: 0, help: 'first steps that train on the copy drills and openings alone' },
  drillShare: { flag: 'drill-share', kind: 'number', min: 0, max: 1, default: 0, help: 'share of the later steps that train on copy drills and openings' },
  envWeight: { flag: 'env-weight', kind: 'number', min: 0, max: 10, default: 0, help: "weight of the env tokens' loss beside the agent's (0: agent tokens only)" },
  schedule: { flag: 'schedule', kind: 'choice', options: ['constant', 'cosine'], default: 'constant', help: 'constant, or cosine: decay to 10% of --lr by the last step' },
  evalEvery: { flag: 'eval-every', kind: 'int', min: 0, max: 1_000_000, default: 0, help: 'also measure held-out success every N steps (0: at the end only)' },
  evalEpisodes: { flag: 'eval-episodes', kind: 'int', min: 1, max: 4096, default: 64, help: 'held-out episodes to measure success on' },
  checkEpisodes: { flag: 'check-episodes', kind: 'int', min: 1, max: 4096, default: null, sameAs: 'eval-episodes', help: 'held-out goals of each --eval-every check (the final measurement uses --eval-episodes)' },
  tokenizer: { flag: 'tokenizer', kind: 'choice', options: ['words', 'pieces', 'indexed', 'whole-ids'], default: 'words', help: 'words; pieces: ids and unknown words spelled by character; indexed: pieces, ids with indexed pieces; whole-ids: pieces, but each id seen is one token' },
} as const satisfies Record<string, OptionSpec>;

/** Pretrain's own options as read: numbers, and each choice as one of its strings. */
export type PretrainOptions = OptionValues<typeof OPTIONS>;

export const PRETRAIN_FLAGS: readonly FlagSpec[] = [
  { name: 'env', kind: 'string', help: 'environment id (required), e.g. minigrid/DoorKey-5x5' },
  {
    name: 'demo-env',
    kind: 'string',
    help: 'environment the demonstrations are drawn in, of the same family (default --env)',
  },
  { name: 'size', kind: 'string', help: 'model size: nano, micro, small (default nano)' },
  {
    name: 'remeasure',
    kind: 'bool',
    help: 'no training: measure <out>/<name>.json again on --eval-episodes held-out goals and update its index entry',
  },
  ...optionFlags(OPTIONS),
  // The episode settings the base model is made for, as the field table names and bounds them.
  ...SETTING_FIELDS.map(fieldFlag),
  {
    name: 'init',
    kind: 'string',
    help: 'continue from this checkpoint .json (same vocabulary) instead of fresh weights',
  },
  { name: 'out', kind: 'string', help: 'output directory (default public/models)' },
  { name: 'name', kind: 'string', help: 'file name stem (default from env and size)' },
];

export const PRETRAIN_USAGE = `usage: npm run pretrain -- --env <id> [--size nano] [options]\n\n${flagHelp(PRETRAIN_FLAGS)}`;

/** Pretrain's flags, read and checked: what to make, from which demonstrations, and where to write it. */
export interface PretrainPlan {
  env: string;
  /** The env the demonstrations are drawn in (of `env`'s family). */
  demoEnv: string;
  size: ModelSize;
  options: PretrainOptions;
  settings: EpisodeSettings;
  seed: number;
  /** As asked for; Node's 'auto' is resolved when the backend is set up. */
  backend: Config['backend'];
  out: string;
  /** The checkpoint's file name stem, also its id in the index. */
  stem: string;
  remeasure: boolean;
  /** --init: the checkpoint to continue from, or null for fresh weights. */
  initPath: string | null;
}

/** The options of `f`, each checked against its row, and the rule between two of them. */
function readPretrainOptions(f: FlagValues): PretrainOptions {
  const o = readOptions(OPTIONS, f);
  if (o.openingSkip >= o.openingTurns)
    throw new UsageError(
      `--opening-skip must be a whole number below --opening-turns (${o.openingTurns}), got ${o.openingSkip}`,
    );
  return o;
}

/** Reads and checks the flags, in the order their errors are reported. */
export function readPlan(f: FlagValues): PretrainPlan {
  const env = String(f.env ?? '');
  if (!env) throw new UsageError('--env is required');
  envSpec(env); // an unknown id is refused here, with close alternatives, before anything runs
  // Demonstrations may come from a variant of the env (same family: same pages and actions).
  const demoEnv = String(f['demo-env'] ?? env);
  if (envSpec(demoEnv).family !== envSpec(env).family)
    throw new UsageError(
      `--demo-env ${demoEnv} is not of ${env}'s family (${envSpec(env).family}): its demonstrations would not fit`,
    );
  const size = String(f.size ?? 'nano') as ModelSize;
  if (!(size in MODEL_PRESETS)) throw new UsageError(`--size must be nano, micro or small, got "${size}"`);
  const options = readPretrainOptions(f);
  // Ranges and cross-field rules as for a run (core/config.ts), errors named by flag.
  const checked = completeConfig(fieldValues(f, SETTING_FIELDS));
  if (!checked.ok) throw new UsageError(formatErrors(flagErrors(checked.errors)));
  const c = checked.config;
  return {
    env,
    demoEnv,
    size,
    options,
    settings: episodeSettings(c) as EpisodeSettings,
    seed: c.seed,
    backend: c.backend,
    out: String(f.out ?? 'public/models'),
    stem: String(f.name ?? `${env.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}-${size}`),
    remeasure: f.remeasure === true,
    initPath: typeof f.init === 'string' ? f.init : null,
  };
}
