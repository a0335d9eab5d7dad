// `npm run pretrain -- --env <id> --size <size>`: makes a base model by SFT on the scripted
// expert's demonstrations with a share of noisy turns (DESIGN §4), measures its greedy and
// sampled success on held-out start states, and writes a checkpoint plus an entry in the
// models index (public/models/index.json by default). Seeded and reproducible. With
// --eval-every the held-out success is also measured during training and the checkpoint written
// at each check, so a long run that stops can go on with --init <out>/<name>.json --steps N.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { completeConfig, defaultConfig, formatErrors } from '../../core/config.js';
import { saveCheckpoint } from '../../core/model/checkpoint.js';
import { MODEL_PRESETS, type ModelSize, modelConfig } from '../../core/model/config.js';
import { type BaseModelEntry, parseModelIndex } from '../../core/model/modelIndex.js';
import { createPolicy, disposeModel, parameterCount } from '../../core/model/params.js';
import { previousTokenInit } from '../../core/model/positionInit.js';
import { promptTemplateTexts } from '../../core/prompt.js';
import { EPISODE_KEYS, type EpisodeSettings, episodeSettings } from '../../core/resolve.js';
import { evaluatePolicy } from '../../core/rl/evaluate.js';
import { copyDrills, sftSequences, sftTrain } from '../../core/rl/sft.js';
import { Rng } from '../../core/rng.js';
import { buildVocabulary, Tokenizer } from '../../core/tokenizer.js';
import { collectDemos, demoExamples, exploreTexts } from '../../envs/demos.js';
import { evalPool } from '../../envs/pools.js';
import { envSpec, evalEnvId } from '../../envs/registry.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { readCheckpointFile } from '../../workers/node/baseModel.js';
import { type Command, UsageError } from '../command.js';
import { fieldFlag, fieldsOf, fieldValues, flagErrors } from '../fieldFlags.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';

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
  {
    name: 'check-episodes',
    kind: 'int',
    help: 'held-out goals of each --eval-every check (default --eval-episodes; the final measurement uses --eval-episodes)',
  },
  { name: 'episodes', kind: 'int', help: 'expert episodes to learn from (default 1500)' },
  { name: 'noise', kind: 'number', help: 'share of noisy demonstration turns, 0–1 (default 0.3)' },
  { name: 'steps', kind: 'int', help: 'SFT optimizer steps (default 1500)' },
  { name: 'batch', kind: 'int', help: 'sequences per SFT step (default 16)' },
  { name: 'lr', kind: 'number', help: 'Adam learning rate (default 0.001)' },
  { name: 'warmup', kind: 'int', help: 'steps of linear learning-rate warm-up (default 0)' },
  {
    name: 'drills',
    kind: 'int',
    help: 'copy drills to make from the demonstrations’ texts (default 0: none; see core/rl/sft.ts copyDrills)',
  },
  {
    name: 'position-init',
    kind: 'string',
    help: 'random (normal, std 0.02); sinusoid: the position table starts as sinusoids; prevtok: sinusoids and a previous-token head in layer 0 (core/model/positionInit.ts); prevtok2: that and a second head two tokens back (default random)',
  },
  {
    name: 'openings',
    kind: 'int',
    help: 'extra expert episodes cut after --opening-turns turns, trained on with the drills (default 0)',
  },
  {
    name: 'opening-turns',
    kind: 'int',
    help: 'turns an opening keeps: 1 the search alone, 2 search and pick (default 2)',
  },
  {
    name: 'opening-skip',
    kind: 'int',
    help: "an opening's first turns left out of training, so it trains on the later ones (default 0)",
  },
  {
    name: 'drill-steps',
    kind: 'int',
    help: 'first steps that train on the copy drills and openings alone (default 0)',
  },
  {
    name: 'drill-share',
    kind: 'number',
    help: 'share of the later steps that train on copy drills and openings, 0–1 (default 0)',
  },
  {
    name: 'env-weight',
    kind: 'number',
    help: "weight of the env tokens' loss beside the agent's, e.g. 0.5 (default 0: agent tokens only)",
  },
  {
    name: 'schedule',
    kind: 'string',
    help: 'constant, or cosine: decay to 10% of --lr by the last step (default constant)',
  },
  {
    name: 'eval-every',
    kind: 'int',
    help: 'also measure held-out success every N steps, on --eval-episodes (default 0: at the end only)',
  },
  // The episode settings the base model is made for, as the field table names and bounds them.
  ...SETTING_FIELDS.map(fieldFlag),
  { name: 'eval-episodes', kind: 'int', help: 'held-out episodes to measure success on (default 64)' },
  {
    name: 'tokenizer',
    kind: 'string',
    help: 'words; pieces: ids and unknown words spelled by character; indexed: pieces, ids with indexed pieces; whole-ids: pieces, but each id seen is one token (default words)',
  },
  {
    name: 'init',
    kind: 'string',
    help: 'continue from this checkpoint .json (same vocabulary) instead of fresh weights',
  },
  { name: 'out', kind: 'string', help: 'output directory (default public/models)' },
  { name: 'name', kind: 'string', help: 'file name stem (default from env and size)' },
];

const USAGE = `usage: npm run pretrain -- --env <id> [--size nano] [options]\n\n${flagHelp(FLAGS)}`;

function positive(name: string, v: number, max: number): number {
  if (!(v >= 1 && v <= max)) throw new UsageError(`--${name} must be from 1 to ${max}, got ${v}`);
  return v;
}

export const pretrainCommand: Command = {
  name: 'pretrain',
  summary: 'make a base model by SFT on noisy expert demonstrations',
  usage: USAGE,
  async run(args, io) {
    const f = parseFlags(args, FLAGS);
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
    const noise = Number(f.noise ?? 0.3);
    if (!(noise >= 0 && noise <= 1)) throw new UsageError(`--noise must be within 0–1, got ${noise}`);
    const episodes = positive('episodes', Number(f.episodes ?? 1500), 100_000);
    const steps = positive('steps', Number(f.steps ?? 1500), 1_000_000);
    const batch = positive('batch', Number(f.batch ?? 16), 1024);
    const lr = Number(f.lr ?? 1e-3);
    const warmupSteps = Number(f.warmup ?? 0);
    const envWeight = Number(f['env-weight'] ?? 0);
    const drillCount = Number(f.drills ?? 0);
    const openingCount = Number(f.openings ?? 0);
    const positionInit = String(f['position-init'] ?? 'random');
    if (!['random', 'sinusoid', 'prevtok', 'prevtok2'].includes(positionInit))
      throw new UsageError(
        `--position-init must be random, sinusoid, prevtok or prevtok2, got "${positionInit}"`,
      );
    const openingTurns = positive('opening-turns', Number(f['opening-turns'] ?? 2), 50);
    const openingSkip = Number(f['opening-skip'] ?? 0);
    if (!(Number.isInteger(openingSkip) && openingSkip >= 0 && openingSkip < openingTurns))
      throw new UsageError(
        `--opening-skip must be a whole number below --opening-turns (${openingTurns}), got ${f['opening-skip']}`,
      );
    const drillSteps = Number(f['drill-steps'] ?? 0);
    const drillShare = Number(f['drill-share'] ?? 0);
    if (!(drillShare >= 0 && drillShare <= 1))
      throw new UsageError(`--drill-share must be within 0–1, got ${drillShare}`);
    if (!(envWeight >= 0 && envWeight <= 10))
      throw new UsageError(`--env-weight must be within 0–10, got ${envWeight}`);
    const schedule = String(f.schedule ?? 'constant');
    if (schedule !== 'constant' && schedule !== 'cosine')
      throw new UsageError(`--schedule must be constant or cosine, got "${schedule}"`);
    const evalEvery = Number(f['eval-every'] ?? 0);
    // Ranges and cross-field rules as for a run (core/config.ts), errors named by flag.
    const checked = completeConfig(fieldValues(f, SETTING_FIELDS));
    if (!checked.ok) throw new UsageError(formatErrors(flagErrors(checked.errors)));
    const c = checked.config;
    const seed = c.seed;
    const settings = {
      contextLength: c.contextLength,
      maxTurns: c.maxTurns,
      maxActionsPerTurn: c.maxActionsPerTurn,
      maxActionsPerTraj: c.maxActionsPerTraj,
      historyTurns: c.historyTurns,
      maxTokensPerTurn: c.maxTokensPerTurn,
    };
    const evalEpisodes = positive('eval-episodes', Number(f['eval-episodes'] ?? 64), 4096);
    const checkEpisodes = positive('check-episodes', Number(f['check-episodes'] ?? evalEpisodes), 4096);
    const tokenizer = String(f.tokenizer ?? 'words');
    if (!['words', 'pieces', 'indexed', 'whole-ids'].includes(tokenizer))
      throw new UsageError(`--tokenizer must be words, pieces, indexed or whole-ids, got "${tokenizer}"`);
    const out = String(f.out ?? 'public/models');
    const stem = String(f.name ?? `${env.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}-${size}`);
    // Node's 'auto' is WASM, as for train.
    const backend = await setupNodeBackend(c.backend === 'auto' ? 'wasm' : c.backend);
    const log = (s: string) => io.stderr.write(`${s}\n`);
    if (f.remeasure === true) return remeasure(env, out, stem, evalEpisodes, log, io);
    log(`pretrain ${env} ${size} on ${backend.backend}`);

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
    const init = typeof f.init === 'string' ? await readCheckpointFile(f.init) : null;
    // Continuing keeps the checkpoint's vocabulary; words it lacks become <unk>.
    const tok = init
      ? init.base.tokenizer
      : new Tokenizer(
          buildVocabulary(texts, {
            pieces: tokenizer !== 'words',
            wholeIds: tokenizer === 'whole-ids',
            indexedPieces: tokenizer === 'indexed',
          }),
        );
    const initSteps = Number((init?.meta.steps as number | undefined) ?? 0);
    const sequences = sftSequences(tok, demoExamples(demos), settings.historyTurns, settings.contextLength);
    const openingSequences = sftSequences(
      tok,
      demoExamples(openings),
      settings.historyTurns,
      settings.contextLength,
      openingSkip,
    );
    log(
      `${demos.length} demos (expert+noise success ${demoSuccess.toFixed(3)}), ${sequences.length} sequences, vocabulary ${tok.size}`,
    );

    const rng = new Rng(seed);
    const policy = init
      ? init.base.policy
      : createPolicy(modelConfig(size, tok.size, settings.contextLength), rng.fork('weights'));
    if (!init && positionInit === 'sinusoid') {
      // Sinusoids (Vaswani et al.) at the token embeddings' scale: a fixed offset such as
      // "the previous token" is then a rotation a query can learn at once, where random
      // position rows must first be learned apart.
      const table = tf.tensor2d(sinusoidPositions(settings.contextLength, policy.config.dModel, 0.02), [
        settings.contextLength,
        policy.config.dModel,
      ]);
      (policy.weights.wpe as tf.Variable).assign(table);
      table.dispose();
    }
    if (!init && positionInit.startsWith('prevtok'))
      await previousTokenInit(policy, { offsets: positionInit === 'prevtok2' ? [1, 2] : [1] });
    if (init && init.base.policy.config.context !== settings.contextLength) {
      throw new UsageError(
        `--init: the checkpoint's context is ${init.base.policy.config.context}, not --context ${settings.contextLength}`,
      );
    }
    const _evalId = evalEnvId(env);
    const pool = evalPool(env);
    /** Writes the checkpoint (`<out>/<stem>.json` + `.bin`) after `done` of this run's steps. */
    const writeModel = async (done: number, seconds: number, r?: { greedy: number; sampled: number }) => {
      const saved = await saveCheckpoint({
        policy,
        tokenizer: tok,
        meta: {
          env,
          size,
          seed,
          settings,
          steps: done + initSteps,
          tokenizer: init ? (init.meta.tokenizer ?? null) : tokenizer,
          trainSeconds: Math.round(seconds + Number((init?.meta.trainSeconds as number | undefined) ?? 0)),
          ...(r ? { greedySuccess: r.greedy, sampledSuccess: r.sampled } : {}),
        },
      });
      await mkdir(out, { recursive: true });
      await writeFile(join(out, `${stem}.json`), JSON.stringify(saved.manifest));
      await writeFile(join(out, `${stem}.bin`), saved.blob);
    };
    const evaluate = async (episodesToRun = evalEpisodes) => {
      const r = await evaluatePolicy(
        policy,
        tok,
        pool,
        { ...settings, formatPenalty: d.formatPenalty },
        episodesToRun,
        seed,
      );
      log(
        `greedy success ${r.greedy.toFixed(3)} (mean reward ${r.greedyReturn.toFixed(3)}), ` +
          `sampled success ${r.sampled.toFixed(3)} (mean reward ${r.sampledReturn.toFixed(3)})`,
      );
      return r;
    };
    const t0 = performance.now();
    let evalMs = 0;
    let recent: number[] = [];
    let recentDrills: number[] = [];
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
    const drillTexts = demos.flatMap((x) => [x.instruction, ...x.turns.map((t) => t.observation)]);
    // The extra pool: copy drills and the openings' turns together.
    const extra = [
      ...(drillCount > 0 ? copyDrills(tok, drillTexts, drillCount, rng.fork('drills')) : []),
      ...openingSequences,
    ];
    const drills = extra.length > 0 ? { sequences: extra, steps: drillSteps, share: drillShare } : undefined;
    const demoLosses: number[] = [];
    const losses = await sftTrain(policy, sequences, {
      steps,
      batchSize: batch,
      lr,
      warmupSteps,
      schedule,
      envWeight,
      epsilon: 1e-8,
      // A continued run draws new batches, not the first run's again.
      rng: rng.fork(initSteps > 0 ? `sft/${initSteps}` : 'sft'),
      ...(drills ? { drills } : {}),
      onStep: (s, loss, b) => {
        if (b.drill) recentDrills.push(loss);
        else {
          recent.push(loss);
          demoLosses.push(loss);
        }
        if (s % 50 === 0 || s === steps - 1) {
          const secs = (performance.now() - t0 - evalMs) / 1000;
          const d = recentDrills.length
            ? `, copy drills ${mean(recentDrills).toFixed(4)} over ${recentDrills.length}`
            : '';
          log(
            `step ${initSteps + s}: demonstrations ${mean(recent).toFixed(4)} over ${recent.length} steps${d} (${secs.toFixed(0)} s)`,
          );
          recent = [];
          recentDrills = [];
        }
      },
      ...(evalEvery > 0
        ? {
            periodic: {
              every: evalEvery,
              run: async (done: number) => {
                const e0 = performance.now();
                log(`held-out check after ${initSteps + done} steps:`);
                const r = await evaluate(checkEpisodes);
                // Saved at every check, so an interrupted run can go on with --init.
                await writeModel(done, (e0 - t0 - evalMs) / 1000, r);
                evalMs += performance.now() - e0;
              },
            },
          }
        : {}),
    });
    // SFT time only: the periodic held-out checks are left out.
    const trainSeconds = (performance.now() - t0 - evalMs) / 1000;
    const result = await evaluate();
    await writeModel(steps, trainSeconds, result);
    const entry: BaseModelEntry = {
      id: stem,
      env,
      size,
      manifest: `${stem}.json`,
      blob: `${stem}.bin`,
      params: parameterCount(policy),
      greedySuccess: result.greedy,
      sampledSuccess: result.sampled,
      settings,
      pretrain: {
        seed,
        episodes,
        noise,
        steps: steps + initSteps,
        batch,
        lr,
        warmup: warmupSteps,
        envWeight,
        drills: drillCount,
        openings: openingCount,
        openingTurns,
        openingSkip,
        ...(demoEnv !== env ? { demoEnv } : {}),
        positionInit,
        drillSteps,
        drillShare,
        schedule,
        init: typeof f.init === 'string' ? 'continued' : 'fresh',
        demoSuccess,
        // Demonstration steps only (copy-drill steps have their own, lower loss).
        firstLoss: demoLosses[0] ?? losses[0] ?? Number.NaN,
        finalLoss: mean(demoLosses.slice(-20)),
        vocabulary: tok.size,
        tokenizer: init
          ? String(init.meta.tokenizer ?? (tok.vocab.version === 2 ? 'pieces' : 'words'))
          : tokenizer,
        greedyReward: result.greedyReturn,
        sampledReward: result.sampledReturn,
        evalEpisodes,
        // Seconds of SFT over every run that led to this checkpoint (continued runs add up).
        trainSeconds: Math.round(trainSeconds + Number((init?.meta.trainSeconds as number | undefined) ?? 0)),
        backend: backend.backend,
      },
    };
    await writeIndexEntry(out, entry);
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
