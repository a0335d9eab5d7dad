// The models index pretrain keeps (`<out>/index.json`, public/models/index.json by default, in
// the shape core/model/modelIndex.ts checks): a finished run's entry — its held-out measurement
// and how it was pretrained — and the file read and written with one entry per id, sorted.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BaseModelEntry, parseModelIndex } from '../../core/model/modelIndex.js';
import { parameterCount } from '../../core/model/params.js';
import type { EvalResult } from '../../core/rl/evaluate.js';
import { mean } from '../../core/stats.js';
import type { PretrainRun, Trained } from './train.js';

/** The models index entry of the finished run: its measurement, and how it was pretrained. */
export function indexEntry(
  run: PretrainRun,
  trained: Trained,
  result: EvalResult,
  backend: string,
): BaseModelEntry {
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

/** `<out>/index.json`'s entries, or none when it does not exist yet. */
export async function readIndex(out: string): Promise<BaseModelEntry[]> {
  try {
    return parseModelIndex(JSON.parse(await readFile(join(out, 'index.json'), 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return [];
  }
}

/** Puts `entry` in `<out>/index.json` in place of the entry with its id, sorted by id. */
export async function writeIndexEntry(out: string, entry: BaseModelEntry): Promise<void> {
  const index = [...(await readIndex(out)).filter((e) => e.id !== entry.id), entry];
  index.sort((a, b) => a.id.localeCompare(b.id));
  await writeFile(join(out, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
}
