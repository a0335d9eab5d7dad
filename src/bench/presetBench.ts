// The echo-trap preset as a user runs it: the shipped DoorKey-5x5 base model, the preset's
// config (4 × 8 rollouts, 4 optimizer steps, evaluation and MI on their schedule) for a few
// iterations on one backend, and what 200 iterations would take at that rate (issue 9's
// "200 iterations in under 5 minutes on WASM" target; reported, never asserted).

import { type Config, formatErrors } from '../core/config.js';
import { BACKEND_MEMORY_BYTES } from '../core/model/memory.js';
import { disposeModel } from '../core/model/params.js';
import { type BaseLayer, episodeSettings, layersEnv, resolveConfig } from '../core/resolve.js';
import type { SecondWorker } from '../core/rl/schedule.js';
import { inProcessPools } from '../envs/pools.js';
import { envIds, envSpec } from '../envs/registry.js';
import type { BackendName } from '../workers/backend.js';
import { type LoadedBase, loadBase } from '../workers/node/baseModel.js';
import { benchTrainer, type IterationSplit } from './trainerBench.js';

/** The iterations a user plans for the target. */
export const PRESET_TARGET_ITERATIONS = 200;

export interface PresetBench {
  preset: string;
  backend: BackendName;
  env: string;
  iterations: number;
  /** Mean over the timed iterations (the first is a warm-up). */
  secondsPerIteration: number;
  split: Omit<IterationSplit, 'totalMs'>;
  /** secondsPerIteration × 200. */
  projected200Seconds: number;
}

/**
 * The named preset's config on `backend` as the playground and `train --preset` resolve it
 * (core/resolve.ts: the base model's episode settings, the algorithm, the preset, `edits`), and
 * its env's shipped base model; refused, as there, when it would not fit. The caller disposes
 * the base policy.
 */
export async function presetSetup(
  name: string,
  backend: BackendName,
  iterations: number,
  edits: Partial<Config> = {},
  /** 'random': fresh weights (a preset no base model ships for, as the tiny one). */
  baseChoice?: 'random',
): Promise<{ config: Config; loaded: LoadedBase }> {
  const { env, modelSize } = layersEnv({ preset: name });
  const loaded = await loadBase({
    env,
    size: modelSize,
    ...(baseChoice ? { base: baseChoice } : {}),
    context: resolveConfig({ preset: name }).values.contextLength,
    seed: 1,
  });
  const { context, vocabSize } = loaded.base.policy.config;
  const base: BaseLayer | null =
    loaded.source === 'random'
      ? null
      : {
          label: `the base model ${loaded.source}`,
          settings: episodeSettings(loaded.settings),
          context,
          vocab: vocabSize,
        };
  const r = resolveConfig(
    {
      base,
      preset: name,
      edits: { ...edits, backend, seed: 1, iterations: edits.iterations ?? Math.max(iterations, 2) },
    },
    envIds(),
    { backend, bytes: BACKEND_MEMORY_BYTES[backend as 'wasm' | 'webgpu' | 'cpu'] },
  );
  if (r.errors.length > 0) {
    disposeModel(loaded.base.policy);
    throw new Error(`the ${name} preset cannot run on ${backend}: ${formatErrors(r.errors)}`);
  }
  return { config: r.values, loaded };
}

/** Runs `iterations` iterations of the named preset with its env's shipped base model. */
export async function benchPreset(
  name: string,
  backend: BackendName,
  iterations: number,
  /** Config edits on top of the preset (e.g. `FROZEN_CONTROL`, core/rl/frozenControl.ts). */
  edits: Partial<Config> = {},
  /** The run's second worker (default: none, the serial schedule). */
  second?: SecondWorker,
  /** meter: each phase's matrix-product GFLOP in the split (flopMeter.ts). */
  options: { meter?: boolean } = {},
): Promise<PresetBench> {
  const { config, loaded } = await presetSetup(name, backend, iterations, edits);
  const spec = envSpec(config.env);
  try {
    const t = await benchTrainer(
      config,
      loaded.base,
      {
        ...inProcessPools(spec.id),
      },
      iterations,
      second,
      options,
    );
    const { totalMs, ...split } = t.split;
    return {
      preset: name,
      backend,
      env: config.env,
      iterations,
      secondsPerIteration: totalMs / 1000,
      split,
      projected200Seconds: (totalMs / 1000) * PRESET_TARGET_ITERATIONS,
    };
  } finally {
    disposeModel(loaded.base.policy);
  }
}
