// `npm run pretrain -- --env <id> --size <size>`: makes a base model by SFT on the scripted
// expert's demonstrations with a share of noisy turns, measures its greedy and
// sampled success on held-out start states, and writes a checkpoint plus an entry in the
// models index (public/models/index.json by default). Seeded and reproducible. With
// --eval-every the held-out success is also measured during training and the checkpoint written
// at each check, so a long run that stops can go on with --init <out>/<name>.json --steps N.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { type Config, completeConfig, defaultConfig, formatErrors } from '../../core/config.js';
import { saveCheckpoint } from '../../core/model/checkpoint.js';
import { MODEL_PRESETS, type ModelSize, modelConfig } from '../../core/model/config.js';
import { type BaseModelEntry, parseModelIndex } from '../../core/model/modelIndex.js';
import { createPolicy, disposeModel, type Model, parameterCount } from '../../core/model/params.js';
import { previousTokenInit } from '../../core/model/positionInit.js';
import { promptTemplateTexts } from '../../core/prompt.js';
import { EPISODE_KEYS, type EpisodeSettings, episodeSettings } from '../../core/resolve.js';
import type { EnvPool } from '../../core/rl/envPool.js';
import { type EvalResult, evaluatePolicy } from '../../core/rl/evaluate.js';
import { Rng } from '../../core/rng.js';
import { copyDrills, type SftOptions, type SftSequence, sftSequences, sftTrain } from '../../core/sft/sft.js';
import { buildVocabulary, Tokenizer } from '../../core/tokenizer.js';
import { collectDemos, type Demo, demoExamples, exploreTexts } from '../../envs/demos.js';
import { evalPool } from '../../envs/pools.js';
import { envSpec } from '../../envs/registry.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { readCheckpointFile } from '../../workers/node/baseModel.js';
import { type Command, UsageError } from '../command.js';
import { fieldFlag, fieldsOf, fieldValues, flagErrors } from '../fieldFlags.js';
import { type FlagSpec, type FlagValues, flagHelp, parseFlags } from '../flags.js';

const d = defaultConfig();

/**
 * [context × D] sinusoidal positions scaled so each row's RMS is `rms`: dimension 2i holds
 * sin(p / 10000^(2i/D)), 2i+1 the cosine.
 */
export function sinusoidPositions(context: number, D: number, rms: number): Float32Array {
  const out = new Float32Array(context * D);
  // sin² + cos² = 1 per pair, so a row's mean square is 1/2 before scaling.
  const scale = rms * Math.SQRT2;
  for (let p = 0; p < context; p++) {
    for (let i = 0; i < D / 2; i++) {
      const angle = p / 10000 ** ((2 * i) / D);
      out[p * D + 2 * i] = scale * Math.sin(angle);
      out[p * D + 2 * i + 1] = scale * Math.cos(angle);
    }
  }
  return out;
}

/** Config fields pretrain takes as flags: the episode settings, the seed and the backend. */
const SETTING_FIELDS = fieldsOf([...EPISODE_KEYS, 'seed', 'backend']);

/** One of pretrain's own options: its flag, bounds or choices, and default, checked in one place. */
interface OptionSpec {
  flag: string;
  kind: 'int' | 'number' | 'choice';
  min?: number;
  max?: number;
  options?: readonly string[];
  /** Its default (null: as `sameAs`'s value). */
  default: number | string | null;
  sameAs?: string;
  help: string;
}

// biome-ignore format: one row per option reads as a table
const OPTIONS = {
  episodes: { flag: 'episodes', kind: 'int', min: 1, max: 100_000, default: 1500, help: 'expert episodes to learn from' },
  noise: { flag: 'noise', kind: 'number', min: 0, max: 1, default: 0.3, help: 'share of noisy demonstration turns' },
  steps: { flag: 'steps', kind: 'int', min: 1, max: 1_000_000, default: 1500, help: 'SFT optimizer steps' },
  batch: { flag: 'batch', kind: 'int', min: 1, max: 1024, default: 16, help: 'sequences per SFT step' },
  lr: { flag: 'lr', kind: 'number', min: 0, max: 1, default: 1e-3, help: 'Adam learning rate' },
  warmup: { flag: 'warmup', kind: 'int', min: 0, max: 1_000_000, default: 0, help: 'steps of linear learning-rate warm-up' },
  drills: { flag: 'drills', kind: 'int', min: 0, max: 1_000_000, default: 0, help: 'copy drills to make from the demonstrations’ texts (0: none; see core/sft/sft.ts copyDrills)' },
  positionInit: { flag: 'position-init', kind: 'choice', options: ['random', 'sinusoid', 'prevtok', 'prevtok2'], default: 'random', help: 'random (normal, std 0.02); sinusoid: the position table starts as sinusoids; prevtok: sinusoids and a previous-token head in layer 0 (core/model/positionInit.ts); prevtok2: that and a second head two tokens back' },
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

type OptionKey = keyof typeof OPTIONS;
/** The options as read: numbers, and each choice as one of its strings. */
type PretrainOptions = {
  [K in OptionKey]: (typeof OPTIONS)[K] extends { options: readonly (infer O)[] } ? O : number;
};

function optionHelp(o: OptionSpec): string {
  const range = o.options ? o.options.join(', ') : `${o.min}–${o.max}`;
  const dflt = o.default === null ? `--${o.sameAs}` : String(o.default);
  return `${o.help} [${range}] (default ${dflt})`;
}

/** Every option of `f` checked against its row: a message names the flag, its range and the value. */
function readOptions(f: FlagValues): PretrainOptions {
  const out: Record<string, number | string> = {};
  for (const [key, o] of Object.entries(OPTIONS) as [OptionKey, OptionSpec][]) {
    const given = f[o.flag];
    if (o.kind === 'choice') {
      const v = String(given ?? o.default);
      if (!o.options?.includes(v))
        throw new UsageError(
          `--${o.flag} must be ${o.options?.slice(0, -1).join(', ')} or ${o.options?.at(-1)}, got "${v}"`,
        );
      out[key] = v;
      continue;
    }
    const fallback =
      o.default ?? out[Object.keys(OPTIONS).find((k) => OPTIONS[k as OptionKey].flag === o.sameAs) as string];
    const v = Number(given ?? fallback);
    const whole = o.kind !== 'int' || Number.isInteger(v);
    if (!(whole && v >= (o.min as number) && v <= (o.max as number)))
      throw new UsageError(
        `--${o.flag} must be ${o.kind === 'int' ? 'a whole number ' : ''}from ${o.min} to ${o.max}, got ${given ?? v}`,
      );
    out[key] = v;
  }
  const o = out as PretrainOptions;
  if (o.openingSkip >= o.openingTurns)
    throw new UsageError(
      `--opening-skip must be a whole number below --opening-turns (${o.openingTurns}), got ${o.openingSkip}`,
    );
  return o;
}

const FLAGS: readonly FlagSpec[] = [
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
  ...Object.values(OPTIONS).map(
    (o): FlagSpec => ({
      name: o.flag,
      kind: o.kind === 'choice' ? 'string' : o.kind,
      help: optionHelp(o),
    }),
  ),
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

const USAGE = `usage: npm run pretrain -- --env <id> [--size nano] [options]\n\n${flagHelp(FLAGS)}`;

/**
 * The SFT corpus: noisy expert demonstrations drawn in `demoEnv`, openings (more episodes cut
 * after their first turns, where the copying the agent must learn sits; their own seed stream),
 * and every text the vocabulary is built from.
 */
function corpus(
  env: string,
  demoEnv: string,
  o: { episodes: number; noise: number; openingCount: number; openingTurns: number },
  settings: EpisodeSettings,
  seed: number,
) {
  const { episodes, noise, openingCount, openingTurns } = o;
  const demos = collectDemos(demoEnv, { episodes, seed, noise, ...settings });
  const demoSuccess = demos.filter((x) => x.success).length / demos.length;
  // Openings: more episodes, cut after their first turns (search, then pick, in WebShop),
  // where the copying the agent must learn sits; drawn from their own seed stream.
  const openings =
    openingCount > 0
      ? collectDemos(demoEnv, {
          episodes: openingCount,
          seed: seed + 7919,
          noise,
          ...settings,
          maxTurns: openingTurns,
        })
      : [];
  const texts = [
    ...promptTemplateTexts(),
    ...exploreTexts(env, 300, 40, seed + 1),
    ...[...demos, ...openings].flatMap((x) => [
      x.instruction,
      ...x.turns.flatMap((t) => [t.observation, t.responseText]),
    ]),
  ];
  return { demos, openings, texts, demoSuccess };
}

/** Starts the position table as sinusoids, or with previous-token heads too (core/model/positionInit.ts). */
async function initPositions(policy: Model, positionInit: string, context: number): Promise<void> {
  if (positionInit === 'sinusoid') {
    // Sinusoids (Vaswani et al.) at the token embeddings' scale: a fixed offset such as
    // "the previous token" is then a rotation a query can learn at once, where random
    // position rows must first be learned apart.
    const table = tf.tensor2d(sinusoidPositions(context, policy.config.dModel, 0.02), [
      context,
      policy.config.dModel,
    ]);
    (policy.weights.wpe as tf.Variable).assign(table);
    table.dispose();
  }
  if (positionInit.startsWith('prevtok'))
    await previousTokenInit(policy, { offsets: positionInit === 'prevtok2' ? [1, 2] : [1] });
}

/** Pretrain's flags, read and checked: what to make, from which demonstrations, and where to write it. */
interface PretrainPlan {
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

/** Reads and checks the flags, in the order their errors are reported. */
function readPlan(f: FlagValues): PretrainPlan {
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
  const options = readOptions(f);
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

/** A checkpoint read back from its file, with its meta. */
type Continued = Awaited<ReturnType<typeof readCheckpointFile>>;

/** The demonstrations, the checkpoint continued from (if any) and the tokenizer. */
interface PretrainCorpus {
  demos: Demo[];
  openings: Demo[];
  /** Success rate of the noisy expert's demonstrations. */
  demoSuccess: number;
  init: Continued | null;
  tok: Tokenizer;
}

/** The corpus with what SFT trains on cut from it, and what the continued checkpoint had done. */
interface PretrainData extends PretrainCorpus {
  sequences: SftSequence[];
  openingSequences: SftSequence[];
  /** Steps the continued checkpoint was trained for (0 for fresh weights). */
  initSteps: number;
  /** Seconds of SFT the continued checkpoint had had (0 for fresh weights). */
  initSeconds: number;
}

/** Draws the corpus, reads --init, and builds the tokenizer on the corpus or keeps the checkpoint's. */
async function corpusAndTokenizer(plan: PretrainPlan): Promise<PretrainCorpus> {
  const o = plan.options;
  const { demos, openings, texts, demoSuccess } = corpus(
    plan.env,
    plan.demoEnv,
    { episodes: o.episodes, noise: o.noise, openingCount: o.openings, openingTurns: o.openingTurns },
    plan.settings,
    plan.seed,
  );
  const init = plan.initPath !== null ? await readCheckpointFile(plan.initPath) : null;
  // Continuing keeps the checkpoint's vocabulary; words it lacks become <unk>.
  const tok = init
    ? init.base.tokenizer
    : new Tokenizer(
        buildVocabulary(texts, {
          pieces: o.tokenizer !== 'words',
          wholeIds: o.tokenizer === 'whole-ids',
          indexedPieces: o.tokenizer === 'indexed',
        }),
      );
  return { demos, openings, demoSuccess, init, tok };
}

/** Cuts the demonstrations and the openings into SFT sequences, and logs the corpus's size. */
function sftData(plan: PretrainPlan, c: PretrainCorpus, log: (s: string) => void): PretrainData {
  const { historyTurns, contextLength } = plan.settings;
  const initSteps = Number((c.init?.meta.steps as number | undefined) ?? 0);
  const initSeconds = Number((c.init?.meta.trainSeconds as number | undefined) ?? 0);
  const sequences = sftSequences(c.tok, demoExamples(c.demos), historyTurns, contextLength);
  const openingSequences = sftSequences(
    c.tok,
    demoExamples(c.openings),
    historyTurns,
    contextLength,
    plan.options.openingSkip,
  );
  log(
    `${c.demos.length} demos (expert+noise success ${c.demoSuccess.toFixed(3)}), ${sequences.length} sequences, vocabulary ${c.tok.size}`,
  );
  return { ...c, sequences, openingSequences, initSteps, initSeconds };
}

/** The policy: the continued checkpoint's, or fresh weights with --position-init's start. */
async function createModel(plan: PretrainPlan, data: PretrainData, rng: Rng): Promise<Model> {
  const { init } = data;
  const context = plan.settings.contextLength;
  const policy = init
    ? init.base.policy
    : createPolicy(modelConfig(plan.size, data.tok.size, context), rng.fork('weights'));
  if (!init) await initPositions(policy, plan.options.positionInit, context);
  if (init && init.base.policy.config.context !== context) {
    throw new UsageError(
      `--init: the checkpoint's context is ${init.base.policy.config.context}, not --context ${context}`,
    );
  }
  return policy;
}

/** A pretraining run under way: what every step after the model's creation works on. */
interface PretrainRun {
  plan: PretrainPlan;
  data: PretrainData;
  policy: Model;
  /** The held-out start states success is measured on. */
  pool: EnvPool;
  log: (s: string) => void;
}

/** Greedy and sampled success on `episodes` held-out goals (the same seeds each time), logged. */
async function measure(run: PretrainRun, episodes: number): Promise<EvalResult> {
  const { plan, data, policy, pool, log } = run;
  const r = await evaluatePolicy(
    policy,
    data.tok,
    pool,
    { ...plan.settings, formatPenalty: d.formatPenalty },
    episodes,
    plan.seed,
  );
  log(
    `greedy success ${r.greedy.toFixed(3)} (mean reward ${r.greedyReturn.toFixed(3)}), ` +
      `sampled success ${r.sampled.toFixed(3)} (mean reward ${r.sampledReturn.toFixed(3)})`,
  );
  return r;
}

/** Writes the checkpoint (`<out>/<stem>.json` + `.bin`) after `done` of this run's steps. */
async function writeModel(
  run: PretrainRun,
  done: number,
  seconds: number,
  r?: { greedy: number; sampled: number },
): Promise<void> {
  const { plan, data } = run;
  const saved = await saveCheckpoint({
    policy: run.policy,
    tokenizer: data.tok,
    meta: {
      env: plan.env,
      size: plan.size,
      seed: plan.seed,
      settings: plan.settings,
      steps: done + data.initSteps,
      tokenizer: data.init ? (data.init.meta.tokenizer ?? null) : plan.options.tokenizer,
      trainSeconds: Math.round(seconds + data.initSeconds),
      ...(r ? { greedySuccess: r.greedy, sampledSuccess: r.sampled } : {}),
    },
  });
  await mkdir(plan.out, { recursive: true });
  await writeFile(join(plan.out, `${plan.stem}.json`), JSON.stringify(saved.manifest));
  await writeFile(join(plan.out, `${plan.stem}.bin`), saved.blob);
}

/** SFT's running time: wall time since it began, less the held-out checks'. */
class SftClock {
  private readonly t0 = performance.now();
  private evalMs = 0;

  /** Seconds of SFT up to `now`. */
  seconds(now: number = performance.now()): number {
    return (now - this.t0 - this.evalMs) / 1000;
  }

  /** Leaves the time since `e0` (a held-out check's) out of SFT's. */
  exclude(e0: number): void {
    this.evalMs += performance.now() - e0;
  }
}

/** The mean of `xs`, NaN for none. */
function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}

/** The extra pool sftTrain mixes in: copy drills and the openings' turns together (undefined: none). */
function drillPool(run: PretrainRun, rng: Rng): SftOptions['drills'] {
  const o = run.plan.options;
  const { demos, tok, openingSequences } = run.data;
  const drillTexts = demos.flatMap((x) => [x.instruction, ...x.turns.map((t) => t.observation)]);
  const extra = [
    ...(o.drills > 0 ? copyDrills(tok, drillTexts, o.drills, rng.fork('drills')) : []),
    ...openingSequences,
  ];
  return extra.length > 0 ? { sequences: extra, steps: o.drillSteps, share: o.drillShare } : undefined;
}

/** sftTrain's onStep: keeps the demonstration steps' losses and logs the mean losses every 50 steps. */
function stepLogger(
  run: PretrainRun,
  clock: SftClock,
  demoLosses: number[],
): NonNullable<SftOptions['onStep']> {
  const { steps } = run.plan.options;
  const { initSteps } = run.data;
  let recent: number[] = [];
  let recentDrills: number[] = [];
  return (s, loss, b) => {
    if (b.drill) recentDrills.push(loss);
    else {
      recent.push(loss);
      demoLosses.push(loss);
    }
    if (s % 50 === 0 || s === steps - 1) {
      const secs = clock.seconds();
      const d = recentDrills.length
        ? `, copy drills ${mean(recentDrills).toFixed(4)} over ${recentDrills.length}`
        : '';
      run.log(
        `step ${initSteps + s}: demonstrations ${mean(recent).toFixed(4)} over ${recent.length} steps${d} (${secs.toFixed(0)} s)`,
      );
      recent = [];
      recentDrills = [];
    }
  };
}

/** The --eval-every check: held-out success on --check-episodes goals, and the checkpoint written. */
function heldOutCheck(run: PretrainRun, clock: SftClock): (done: number) => Promise<void> {
  return async (done) => {
    const e0 = performance.now();
    run.log(`held-out check after ${run.data.initSteps + done} steps:`);
    const r = await measure(run, run.plan.options.checkEpisodes);
    // Saved at every check, so an interrupted run can go on with --init.
    await writeModel(run, done, clock.seconds(e0), r);
    clock.exclude(e0);
  };
}

/** What SFT left: every step's loss, the demonstration steps' alone, and its seconds. */
interface Trained {
  losses: number[];
  demoLosses: number[];
  /** SFT time only: the periodic held-out checks are left out. */
  seconds: number;
}

/** The SFT loop, with its loss log and --eval-every checks. */
async function train(run: PretrainRun, rng: Rng): Promise<Trained> {
  const o = run.plan.options;
  const { initSteps } = run.data;
  // Started before the drills are made: making them counts as training time.
  const clock = new SftClock();
  const drills = drillPool(run, rng);
  const demoLosses: number[] = [];
  const losses = await sftTrain(run.policy, run.data.sequences, {
    steps: o.steps,
    batchSize: o.batch,
    lr: o.lr,
    warmupSteps: o.warmup,
    schedule: o.schedule,
    envWeight: o.envWeight,
    epsilon: 1e-8,
    // A continued run draws new batches, not the first run's again.
    rng: rng.fork(initSteps > 0 ? `sft/${initSteps}` : 'sft'),
    ...(drills ? { drills } : {}),
    onStep: stepLogger(run, clock, demoLosses),
    ...(o.evalEvery > 0 ? { periodic: { every: o.evalEvery, run: heldOutCheck(run, clock) } } : {}),
  });
  return { losses, demoLosses, seconds: clock.seconds() };
}

/** The models index entry of the finished run: its measurement, and how it was pretrained. */
function indexEntry(run: PretrainRun, trained: Trained, result: EvalResult, backend: string): BaseModelEntry {
  const { plan, data } = run;
  const { env, demoEnv, stem, options: o } = plan;
  const { init, tok } = data;
  const { demoLosses } = trained;
  return {
    id: stem,
    env,
    size: plan.size,
    manifest: `${stem}.json`,
    blob: `${stem}.bin`,
    params: parameterCount(run.policy),
    greedySuccess: result.greedy,
    sampledSuccess: result.sampled,
    settings: plan.settings,
    pretrain: {
      seed: plan.seed,
      episodes: o.episodes,
      noise: o.noise,
      steps: o.steps + data.initSteps,
      batch: o.batch,
      lr: o.lr,
      warmup: o.warmup,
      envWeight: o.envWeight,
      drills: o.drills,
      openings: o.openings,
      openingTurns: o.openingTurns,
      openingSkip: o.openingSkip,
      ...(demoEnv !== env ? { demoEnv } : {}),
      positionInit: o.positionInit,
      drillSteps: o.drillSteps,
      drillShare: o.drillShare,
      schedule: o.schedule,
      init: plan.initPath !== null ? 'continued' : 'fresh',
      demoSuccess: data.demoSuccess,
      // Demonstration steps only (copy-drill steps have their own, lower loss).
      firstLoss: demoLosses[0] ?? trained.losses[0] ?? Number.NaN,
      finalLoss: mean(demoLosses.slice(-20)),
      vocabulary: tok.size,
      tokenizer: init
        ? String(init.meta.tokenizer ?? (tok.vocab.version === 2 ? 'pieces' : 'words'))
        : o.tokenizer,
      greedyReward: result.greedyReturn,
      sampledReward: result.sampledReturn,
      evalEpisodes: o.evalEpisodes,
      // Seconds of SFT over every run that led to this checkpoint (continued runs add up).
      trainSeconds: Math.round(trained.seconds + data.initSeconds),
      backend,
    },
  };
}

export const pretrainCommand: Command = {
  name: 'pretrain',
  summary: 'make a base model by SFT on noisy expert demonstrations',
  usage: USAGE,
  async run(args, io) {
    const plan = readPlan(parseFlags(args, FLAGS));
    // Node's 'auto' is WASM, as for train.
    const backend = await setupNodeBackend(plan.backend === 'auto' ? 'wasm' : plan.backend);
    const log = (s: string) => io.stderr.write(`${s}\n`);
    if (plan.remeasure) return remeasure(plan.env, plan.out, plan.stem, plan.options.evalEpisodes, log, io);
    log(`pretrain ${plan.env} ${plan.size} on ${backend.backend}`);
    const data = sftData(plan, await corpusAndTokenizer(plan), log);
    const rng = new Rng(plan.seed);
    const policy = await createModel(plan, data, rng);
    const run: PretrainRun = { plan, data, policy, pool: evalPool(plan.env), log };
    const trained = await train(run, rng);
    const result = await measure(run, plan.options.evalEpisodes);
    await writeModel(run, plan.options.steps, trained.seconds, result);
    const entry = indexEntry(run, trained, result, backend.backend);
    await writeIndexEntry(plan.out, entry);
    io.stdout.write(`${JSON.stringify(entry)}\n`);
    disposeModel(policy);
    return 0;
  },
};

/** `<out>/index.json`'s entries, or none when it does not exist yet. */
async function readIndex(out: string): Promise<BaseModelEntry[]> {
  try {
    return parseModelIndex(JSON.parse(await readFile(join(out, 'index.json'), 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return [];
  }
}

/** Puts `entry` in `<out>/index.json` in place of the entry with its id, sorted by id. */
async function writeIndexEntry(out: string, entry: BaseModelEntry): Promise<void> {
  const index = [...(await readIndex(out)).filter((e) => e.id !== entry.id), entry];
  index.sort((a, b) => a.id.localeCompare(b.id));
  await writeFile(join(out, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
}

/**
 * `--remeasure`: the held-out measurement of the end of a pretraining run (same seeds, the
 * checkpoint's own settings), on `episodes` goals, written into the model's index entry.
 */
async function remeasure(
  env: string,
  out: string,
  stem: string,
  episodes: number,
  log: (s: string) => void,
  io: Parameters<Command['run']>[1],
): Promise<number> {
  const entry = (await readIndex(out)).find((e) => e.id === stem);
  if (!entry)
    throw new UsageError(`--remeasure: ${join(out, 'index.json')} has no entry "${stem}" (see --name)`);
  if (entry.env !== env)
    throw new UsageError(`--remeasure: "${stem}" was pretrained on ${entry.env}, not --env ${env}`);
  const { base, meta } = await readCheckpointFile(join(out, entry.manifest));
  const pool = evalPool(env);
  const settings = {
    ...(episodeSettings(entry.settings) as EpisodeSettings),
    formatPenalty: d.formatPenalty,
  };
  const seed = Number(entry.pretrain.seed ?? meta.seed ?? 1);
  const r = await evaluatePolicy(base.policy, base.tokenizer, pool, settings, episodes, seed);
  disposeModel(base.policy);
  log(
    `${stem} on ${episodes} held-out goals: greedy success ${r.greedy.toFixed(3)} (mean reward ` +
      `${r.greedyReturn.toFixed(3)}), sampled success ${r.sampled.toFixed(3)} (mean reward ${r.sampledReturn.toFixed(3)})`,
  );
  const updated: BaseModelEntry = {
    ...entry,
    greedySuccess: r.greedy,
    sampledSuccess: r.sampled,
    pretrain: {
      ...entry.pretrain,
      greedyReward: r.greedyReturn,
      sampledReward: r.sampledReturn,
      evalEpisodes: episodes,
    },
  };
  await writeIndexEntry(out, updated);
  io.stdout.write(`${JSON.stringify(updated)}\n`);
  return 0;
}
