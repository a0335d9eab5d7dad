// What pretrain trains on: the noisy expert's demonstrations and the openings drawn in the
// demonstration env, every text the vocabulary is built from, the tokenizer (built on them, or
// the continued checkpoint's), and the SFT sequences cut from the demonstrations.
import { promptTemplateTexts } from '../../core/prompt.js';
import type { EpisodeSettings } from '../../core/resolve.js';
import { type SftSequence, sftSequences } from '../../core/sft/sft.js';
import { buildVocabulary, Tokenizer } from '../../core/tokenizer.js';
import { collectDemos, type Demo, demoExamples, exploreTexts } from '../../envs/demos.js';
import { readCheckpointFile } from '../../workers/node/baseModel.js';
import type { PretrainPlan } from './options.js';

/** A checkpoint read back from its file, with its meta. */
type Continued = Awaited<ReturnType<typeof readCheckpointFile>>;

/** The demonstrations, the checkpoint continued from (if any) and the tokenizer. */
export interface PretrainCorpus {
  demos: Demo[];
  openings: Demo[];
  /** Success rate of the noisy expert's demonstrations. */
  demoSuccess: number;
  init: Continued | null;
  tok: Tokenizer;
}

/** The corpus with what SFT trains on cut from it, and what the continued checkpoint had done. */
export interface PretrainData extends PretrainCorpus {
  sequences: SftSequence[];
  openingSequences: SftSequence[];
  /** Steps the continued checkpoint was trained for (0 for fresh weights). */
  initSteps: number;
  /** Seconds of SFT the continued checkpoint had had (0 for fresh weights). */
  initSeconds: number;
}

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

/** Draws the corpus, reads --init, and builds the tokenizer on the corpus or keeps the checkpoint's. */
export async function corpusAndTokenizer(plan: PretrainPlan): Promise<PretrainCorpus> {
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
export function sftData(plan: PretrainPlan, c: PretrainCorpus, log: (s: string) => void): PretrainData {
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
