// Finding and loading a base model in Node (the CLI, benchmarks, scripts), the Node side of
// workers/baseModel.ts: from the models index by env and size, from an explicit checkpoint
// manifest path, or `random` (fresh weights with a vocabulary built from the environment's texts,
// for envs without a pretrained model).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type CheckpointManifest, loadCheckpoint } from '../../core/model/checkpoint.js';
import type { ModelSize } from '../../core/model/config.js';
import { type BaseModelEntry, findBaseModel, parseModelIndex } from '../../core/model/modelIndex.js';
import { type BaseLayer, manifestLayer } from '../../core/resolve.js';
import type { BaseModel } from '../../core/rl/session.js';
import { untrainedBase } from '../../envs/untrainedBase.js';

export const DEFAULT_MODELS_DIR = 'public/models';

export interface LoadedBase {
  base: BaseModel;
  /** Where it came from, for logs and summaries. */
  source: string;
  entry?: BaseModelEntry;
  /** Episode settings the base model was trained with (empty for random). */
  settings: Record<string, number>;
  /** Said on stderr: why the run starts from an untrained model it was not asked for. */
  note?: string;
}

/** The models index in `dir`, or [] when there is none. */
export async function readModelIndex(dir = DEFAULT_MODELS_DIR): Promise<BaseModelEntry[]> {
  try {
    return parseModelIndex(JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Reads a checkpoint manifest and the .bin beside it. */
export async function readCheckpointFile(
  path: string,
): Promise<{ base: BaseModel; meta: Record<string, unknown> }> {
  const manifest = JSON.parse(await readFile(path, 'utf8'));
  const blobPath = path.replace(/\.json$/, '.bin');
  const blob = new Uint8Array(await readFile(blobPath));
  const loaded = loadCheckpoint(manifest, blob);
  return { base: { policy: loaded.policy, tokenizer: loaded.tokenizer }, meta: loaded.meta };
}

/**
 * Loads the base model: `base` is 'random', a manifest path, or undefined (look up env and size
 * in the index of `modelsDir`).
 */
export async function loadBase(opts: {
  env: string;
  size: ModelSize;
  base?: string;
  modelsDir?: string;
  context: number;
  seed: number;
}): Promise<LoadedBase> {
  if (opts.base === 'random') {
    return {
      base: untrainedBase(opts.env, opts.size, opts.context, opts.seed),
      source: 'random',
      settings: {},
    };
  }
  if (opts.base) {
    const { base, meta } = await readCheckpointFile(opts.base);
    return { base, source: opts.base, settings: (meta.settings as Record<string, number>) ?? {} };
  }
  const dir = opts.modelsDir ?? DEFAULT_MODELS_DIR;
  const entry = findBaseModel(await readModelIndex(dir), opts.env, opts.size);
  // No base model for this env and size: an untrained one, as the page starts it (workers/baseModel.ts).
  if (!entry)
    return {
      base: untrainedBase(opts.env, opts.size, opts.context, opts.seed),
      source: 'random',
      settings: {},
      note: `no ${opts.size} base model for ${opts.env} in ${dir}/index.json: starting from an untrained model, as the page does (make one with \`npm run pretrain -- --env ${opts.env} --size ${opts.size}\`)`,
    };
  const { base } = await readCheckpointFile(join(dir, entry.manifest));
  return {
    base,
    source: join(dirname(join(dir, entry.manifest)), entry.manifest),
    entry,
    settings: entry.settings,
  };
}

/**
 * The base model's layer for an env and size as a run in Node resolves it (core/resolve.ts): the
 * models index entry's settings over its manifest, or null when the index has none (untrained).
 */
export async function indexBaseLayer(
  env: string,
  size: string,
  models: string | undefined,
): Promise<BaseLayer | null> {
  const entry = findBaseModel(await readModelIndex(models), env, size);
  if (!entry) return null;
  const manifest = JSON.parse(
    await readFile(join(models ?? DEFAULT_MODELS_DIR, entry.manifest), 'utf8'),
  ) as CheckpointManifest;
  return manifestLayer(manifest, `the base model ${entry.id}`, entry.settings);
}
