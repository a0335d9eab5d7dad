// WebShop-lite's costs (issue 19): one SFT step of its base model two ways, and an RL iteration
// of the `webshop` preset from the shipped base model, split by phase.
// - SFT `words-full`: the step as pretraining ran before pieces — the word vocabulary (every
//   product id fragment its own row), uniform batches padded to their longest sequence's bucket,
//   the loss as the RL scorer computes it (LM head and entropy over every position, masked mean).
// - SFT `pieces-targets`: the step as it runs now (core/sft/sft.ts) — the pieces vocabulary,
//   batches from one length bucket, the LM head on the agent's target tokens only.
// Both on the same demonstrations (the base model's episode settings) and the same model size,
// on the active backend; the first step of each is a warm-up, left out of the median.
import * as tf from '@tensorflow/tfjs';
import { Adam } from '../core/model/adam.js';
import { modelConfig } from '../core/model/config.js';
import { createPolicy, disposeModel, modelVariables } from '../core/model/params.js';
import { bucketLength, padRows, policyLogProbs } from '../core/model/scoring.js';
import { promptTemplateTexts } from '../core/prompt.js';
import { Rng } from '../core/rng.js';
import { type SftSequence, sftSequences, sftTrain } from '../core/sft/sft.js';
import { buildVocabulary, Tokenizer } from '../core/tokenizer.js';
import { maskedMean } from '../core/variants/lossAggs.js';
import { collectDemos, demoExamples, exploreTexts } from '../envs/demos.js';
import type { BackendName } from '../workers/backend.js';
import { benchPreset, type PresetBench } from './presetBench.js';

export const WEBSHOP_ENV = 'webshop/lite';

/** The WebShop-lite base model's episode settings (public/models/index.json). */
const EPISODE = { maxTurns: 8, maxActionsPerTurn: 1, maxActionsPerTraj: 8, historyTurns: 1, context: 512 };

export interface WebshopSftRow {
  variant: 'words-full' | 'pieces-targets';
  vocabulary: number;
  batch: number;
  /** Mean padded length of the timed steps' batches. */
  meanT: number;
  /** Median ms of the timed steps. */
  stepMs: number;
  steps: number;
}

export interface WebshopBench {
  backend: BackendName;
  demos: number;
  sft: WebshopSftRow[];
  /** `words-full` step ms ÷ `pieces-targets` step ms. */
  sftSpeedup: number;
  /** The `webshop` preset from the shipped base model (null when not requested or refused). */
  iteration: PresetBench | null;
  /** Why the preset did not run, when its config was refused (e.g. over the memory budget). */
  iterationRefused?: string;
}

export interface WebshopBenchSettings {
  demos: number;
  batch: number;
  /** Timed SFT steps per variant (one more runs first as a warm-up). */
  sftSteps: number;
  /** RL iterations of the preset (the first is a warm-up); 0 skips them. */
  iterations: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.floor((s.length - 1) / 2)] as number);
};

/** The step pretraining took before pieces: uniform batch, full-sequence scorer loss. */
async function timeLegacy(
  tok: Tokenizer,
  sequences: readonly SftSequence[],
  s: WebshopBenchSettings,
): Promise<WebshopSftRow> {
  const policy = createPolicy(modelConfig('nano', tok.size, EPISODE.context), new Rng(1).fork('weights'));
  const optimizer = new Adam({ epsilon: 1e-8 });
  const vars = modelVariables(policy);
  const rng = new Rng(2);
  const times: number[] = [];
  const lengths: number[] = [];
  try {
    for (let step = 0; step <= s.sftSteps; step++) {
      const t0 = performance.now();
      const batch = Array.from({ length: s.batch }, () => rng.choice(sequences));
      const T = bucketLength(Math.max(...batch.map((x) => x.ids.length)), EPISODE.context);
      const maskFlat = new Float32Array(batch.length * (T - 1));
      for (const [b, x] of batch.entries()) maskFlat.set(x.mask, b * (T - 1));
      const tokens = tf.tensor2d(
        padRows(
          batch.map((x) => x.ids),
          T,
          0,
        ),
        [batch.length, T],
        'int32',
      );
      const mask = tf.tensor2d(maskFlat, [batch.length, T - 1]);
      const loss = optimizer.minimize(
        () => {
          const { logp, entropy } = policyLogProbs(policy, tokens);
          entropy.dispose();
          return tf.neg(maskedMean(logp, mask)) as tf.Scalar;
        },
        vars,
        2e-3,
      );
      await loss.data();
      tf.dispose([tokens, mask, loss]);
      if (step > 0) {
        times.push(performance.now() - t0);
        lengths.push(T);
      }
    }
  } finally {
    optimizer.dispose();
    disposeModel(policy);
  }
  return row('words-full', tok, s, lengths, times);
}

/** The step pretraining takes now (core/sft/sft.ts sftTrain). */
async function timeCurrent(
  tok: Tokenizer,
  sequences: readonly SftSequence[],
  s: WebshopBenchSettings,
): Promise<WebshopSftRow> {
  const policy = createPolicy(modelConfig('nano', tok.size, EPISODE.context), new Rng(1).fork('weights'));
  const times: number[] = [];
  const lengths: number[] = [];
  let t0 = performance.now();
  try {
    await sftTrain(policy, sequences, {
      steps: s.sftSteps + 1,
      batchSize: s.batch,
      lr: 2e-3,
      epsilon: 1e-8,
      rng: new Rng(2),
      onStep: (step, _loss, batch) => {
        if (step > 0) {
          times.push(performance.now() - t0);
          lengths.push(batch.T);
        }
        t0 = performance.now();
      },
    });
  } finally {
    disposeModel(policy);
  }
  return row('pieces-targets', tok, s, lengths, times);
}

function row(
  variant: WebshopSftRow['variant'],
  tok: Tokenizer,
  s: WebshopBenchSettings,
  lengths: number[],
  times: number[],
): WebshopSftRow {
  return {
    variant,
    vocabulary: tok.size,
    batch: s.batch,
    meanT: Math.round(lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length)),
    stepMs: median(times),
    steps: times.length,
  };
}

/** Runs the WebShop-lite part of the benchmark on the active backend (`backend` names it). */
export async function benchWebshop(
  backend: BackendName,
  s: WebshopBenchSettings,
  log: (line: string) => void = () => {},
): Promise<WebshopBench> {
  const demos = collectDemos(WEBSHOP_ENV, {
    episodes: s.demos,
    seed: 1,
    noise: 0.1,
    maxTurns: EPISODE.maxTurns,
    maxActionsPerTurn: EPISODE.maxActionsPerTurn,
    maxActionsPerTraj: EPISODE.maxActionsPerTraj,
  });
  const texts = [
    ...promptTemplateTexts(),
    ...exploreTexts(WEBSHOP_ENV, 300, 40, 2),
    ...demos.flatMap((x) => [x.instruction, ...x.turns.flatMap((t) => [t.observation, t.responseText])]),
  ];
  const examples = demoExamples(demos);
  const sft: WebshopSftRow[] = [];
  for (const pieces of [false, true]) {
    const tok = new Tokenizer(buildVocabulary(texts, { pieces }));
    const sequences = sftSequences(tok, examples, EPISODE.historyTurns, EPISODE.context);
    log(
      `bench: webshop SFT step, ${pieces ? 'pieces, target rows' : 'words, full sequence'} (vocabulary ${tok.size})`,
    );
    sft.push(await (pieces ? timeCurrent : timeLegacy)(tok, sequences, s));
  }
  let iteration: PresetBench | null = null;
  let iterationRefused: string | undefined;
  if (s.iterations > 0) {
    log(`bench: webshop preset, ${s.iterations} iterations on ${backend}`);
    // A refused config (the memory check) is a result to report, not a failed bench.
    iteration = await benchPreset('webshop', backend, s.iterations).catch((err: Error) => {
      if (!/cannot run on/.test(err.message)) throw err;
      iterationRefused = err.message;
      log(`bench: ${err.message}`);
      return null;
    });
  }
  const [before, after] = sft as [WebshopSftRow, WebshopSftRow];
  return {
    backend,
    demos: s.demos,
    sft,
    sftSpeedup: Math.round((100 * before.stepMs) / Math.max(1e-9, after.stepMs)) / 100,
    iteration,
    ...(iterationRefused ? { iterationRefused } : {}),
  };
}
