// `pretrain --remeasure`: no training, the held-out measurement of a finished base model again
// — the same seeds and the checkpoint's own episode settings, on --eval-episodes goals — written
// into its models index entry (only the figures and their episode count change).
import { join } from 'node:path';
import { defaultConfig } from '../../core/config.js';
import type { BaseModelEntry } from '../../core/model/modelIndex.js';
import { disposeModel } from '../../core/model/params.js';
import { type EpisodeSettings, episodeSettings } from '../../core/resolve.js';
import { evaluatePolicy } from '../../core/rl/evaluate.js';
import { evalPool } from '../../envs/pools.js';
import { readCheckpointFile } from '../../workers/node/baseModel.js';
import { type Command, UsageError } from '../command.js';
import { readIndex, writeIndexEntry } from './modelsIndex.js';

/**
 * The held-out measurement of the end of a pretraining run (same seeds, the checkpoint's own
 * settings), on `episodes` goals, written into the model's index entry and printed.
 */
export async function remeasure(
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
    formatPenalty: defaultConfig().formatPenalty,
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
