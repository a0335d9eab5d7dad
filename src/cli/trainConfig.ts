// A run's config as the command line resolves it (train, sweep, the round runner): the base model's
// settings ← the algorithm ← `--preset` ← the `--config` file ← the flags, through core/resolve;
// and where the base model comes from. Errors name the flag.
import { readFile, stat } from 'node:fs/promises';
import { type Config, formatErrors, MAX_CONFIG_FILE_BYTES } from '../core/config.js';
import type { CheckpointManifest } from '../core/model/checkpoint.js';
import { BACKEND_MEMORY_BYTES } from '../core/model/memory.js';
import { PRESETS } from '../core/presets.js';
import { type BaseLayer, layersEnv, manifestLayer, resolveConfig } from '../core/resolve.js';
import { envIds } from '../envs/registry.js';
import { indexBaseLayer } from '../workers/node/baseModel.js';
import { UsageError } from './command.js';
import { fieldValues, flagErrors } from './fieldFlags.js';

/** Parses `--config` (size-checked, a JSON object) into config fields, unvalidated. */
async function readConfigFile(path: string): Promise<Record<string, unknown>> {
  const cannotRead = (err: Error) => {
    throw new UsageError(`--config: cannot read ${path}: ${err.message}`);
  };
  // Size first: an oversized (or endless, e.g. /dev/zero) file is refused before it is read.
  const info = await stat(path).catch(cannotRead);
  if (!info.isFile() || info.size > MAX_CONFIG_FILE_BYTES)
    throw new UsageError(`--config: must be a file of at most ${MAX_CONFIG_FILE_BYTES} bytes`);
  const text = await readFile(path, 'utf8').catch(cannotRead);
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--config: ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!file || typeof file !== 'object' || Array.isArray(file))
    throw new UsageError('--config: must hold a JSON object');
  return file as Record<string, unknown>;
}

/** The base model's layer for an env and size (null: an untrained base). */
export type BaseLookup = (env: string, size: string) => Promise<BaseLayer | null>;

/**
 * Resolves the run's config through core/resolve: the base model's settings ← the algorithm
 * ← `--preset` ← the file ← the flags; errors name the flag.
 */
export async function resolveTrainConfig(
  flags: Record<string, string | number | boolean>,
  lookupBase: BaseLookup,
): Promise<Config> {
  const file = typeof flags.config === 'string' ? await readConfigFile(flags.config) : {};
  const fromFlags = fieldValues(flags);
  const preset = typeof flags.preset === 'string' ? flags.preset : null;
  if (preset !== null && !PRESETS[preset])
    throw new UsageError(`--preset: "${preset}" is not a preset (known: ${Object.keys(PRESETS).join(', ')})`);
  const edits = { ...file, ...fromFlags } as Partial<Config>;
  const { env, modelSize } = layersEnv({ preset, edits });
  const base = envIds().includes(env) ? await lookupBase(env, modelSize) : null;
  // Node's 'auto' is WASM (workers/node/backend.ts); its heap has the browser's limit.
  const backend = edits.backend === undefined || edits.backend === 'auto' ? 'wasm' : edits.backend;
  const r = resolveConfig({ base, preset, edits }, envIds(), {
    backend,
    bytes: BACKEND_MEMORY_BYTES[backend],
  });
  if (r.errors.length > 0) throw new UsageError(formatErrors(flagErrors(r.errors)));
  return r.values;
}

/**
 * Where a run's base model comes from, as config resolution sees it: an explicit checkpoint
 * (`--base path.json`), `random` (untrained: no layer), or the models index entry for the env
 * and size (none: untrained).
 */
export function baseLookup(base: string | undefined, models: string | undefined): BaseLookup {
  return async (env, size) => {
    if (base === 'random') return null;
    if (base) {
      const manifest = JSON.parse(
        await readFile(base, 'utf8').catch((err: Error) => {
          throw new UsageError(`--base: cannot read ${base}: ${err.message}`);
        }),
      ) as CheckpointManifest;
      return manifestLayer(manifest, base);
    }
    return indexBaseLayer(env, size, models);
  };
}
