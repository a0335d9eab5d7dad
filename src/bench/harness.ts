// `npm run bench` in one function: env steps/s per family, the env path against
// one message per step, rollout tokens/s with and without the KV cache, update and scoring time
// per size and backend, kernels or dispatches per training step, the backend probe, real
// trainer iterations split by phase, and the tensor count over the iterations — cpu and wasm
// in this process, webgpu in a child process on the software adapter when one is installed
// (backendParts.ts); what is measured and how much is settings.ts.
// Node only (child process, wasm binaries from node_modules).

import { cpus } from 'node:os';
import * as tf from '@tensorflow/tfjs';
import type { Config } from '../core/config.js';
import { modelConfig } from '../core/model/config.js';
import { resolveConfig } from '../core/resolve.js';
import { FROZEN_CONTROL } from '../core/rl/frozenControl.js';
import { inProcessPools } from '../envs/pools.js';
import { envIds, envSpec } from '../envs/registry.js';
import { untrainedBase } from '../envs/untrainedBase.js';
import type { BackendName } from '../workers/backend.js';
import { type BackendParts, benchCpuWasm, benchWebgpu, select } from './backendParts.js';
import { deriveRatios, deriveTargets } from './derived.js';
import { benchEnvFamilies, benchEnvPath } from './envBench.js';
import { benchPreset } from './presetBench.js';
import { rooflineRows } from './roofline.js';
import { type BenchResults, benchResults, type Measured } from './schema.js';
import type { BenchSettings } from './settings.js';
import { benchTrainer } from './trainerBench.js';
import { benchWasmThreads } from './wasmThreadsBench.js';
import { benchWebshop } from './webshopBench.js';

export { type BenchSettings, FULL_SETTINGS, QUICK_SETTINGS } from './settings.js';

/** The FLOP count behind the roofline, in words (src/bench/roofline.ts has the derivation). */
const ROOFLINE_FORMULA =
  'matrix products only, 2 FLOPs per multiply-add; N = B·T, F = 4D, S keys, V vocabulary, L layers. ' +
  'Forward = L·(8·N·D² + 4·N·D·F + 4·B·T·S·D) + 2·M·D·V (LM head on M rows; the embedding is a ' +
  'gather, no product). Training step = 3 × forward (M = B·(T−1)); scoring = forward (M = B·(T−1)); ' +
  'decoding n tokens = prefill (T = S = prompt, M = B) + n−1 cached steps (T = 1, ' +
  'S = prompt + i, M = B). Share = phase GFLOP/s ÷ the same-run 2-D matMul rate of the backend.';

/** The threads section, or why it could not run (no Chromium, a failed build or page). */
export async function measureWasmThreads(
  rounds: number,
  log: (line: string) => void,
): Promise<NonNullable<BenchResults['wasmThreads']>> {
  try {
    return { ran: true, reason: '', result: await benchWasmThreads(rounds, log) };
  } catch (err) {
    return { ran: false, reason: (err as Error).message.split('\n')[0] ?? 'failed', result: null };
  }
}

/**
 * The config of the timed trainer iterations, built like every run's (core/resolve.ts): defaults
 * ← the algorithm ← the settings' edits.
 */
function trainerConfig(tr: BenchSettings['trainer'], runOn: BackendName): Config {
  const cfg = resolveConfig(
    {
      edits: {
        algorithm: tr.algorithm,
        env: tr.env,
        modelSize: 'nano',
        backend: runOn,
        groups: tr.groups,
        groupSize: tr.groupSize,
        maxTurns: tr.maxTurns,
        maxTokensPerTurn: tr.maxTokensPerTurn,
        contextLength: tr.context,
        iterations: tr.iterations,
        evalEvery: 0,
        miEvery: 0,
        checkpointEvery: 0,
        seed: 1,
      },
    },
    envIds(),
  );
  if (cfg.errors.length > 0) throw new Error(`bench trainer config: ${JSON.stringify(cfg.errors)}`);
  return cfg.values;
}

/** The echo-trap preset and its frozen control (lr 0: what a null lane costs beside a learner). */
async function presetParts(s: BenchSettings, runOn: BackendName, log: (line: string) => void) {
  if (s.presetIterations <= 0) return { preset: null, frozenPreset: null };
  log(`bench: echo-trap preset, ${s.presetIterations} iterations on ${runOn}`);
  const preset = await benchPreset('echo-trap', runOn, s.presetIterations);
  // Its frozen control skips the update.
  log(`bench: echo-trap preset's frozen control, ${s.presetIterations} iterations on ${runOn}`);
  const frozenPreset = await benchPreset('echo-trap', runOn, s.presetIterations, FROZEN_CONTROL);
  return { preset, frozenPreset };
}

/** Runs the whole benchmark; `log` gets one progress line per part. */
export async function runBench(
  s: BenchSettings,
  log: (line: string) => void = () => {},
): Promise<BenchResults> {
  const t0 = performance.now();
  await select(s.backends.includes('wasm') ? 'wasm' : 'cpu');
  const base = untrainedBase(s.trainer.env, 'nano', s.trainer.context, 1);
  const tok = base.tokenizer;
  log(`bench: envs (${s.envSteps} steps per family)`);
  const envs = benchEnvFamilies(s.envSteps);
  const p = s.envPath;
  const envPath = await benchEnvPath(p.env, p.slots, p.turns, p.actions);
  const parts = await benchCpuWasm(s, tok, log);

  // Trainer iterations on the fastest of cpu/wasm for nano.
  const runOn: BackendName = parts.backends.find((b) => b.backend === 'wasm' && b.available) ? 'wasm' : 'cpu';
  await select(runOn);
  log(`bench: ${s.trainer.iterations} trainer iterations on ${runOn}`);
  const tr = s.trainer;
  const spec = envSpec(tr.env);
  const trained = await benchTrainer(trainerConfig(tr, runOn), base, inProcessPools(spec.id), tr.iterations);
  // WASM threads on/off: in Chromium (Node's tfjs-wasm has no threads), a build of bench/browser.
  const wasmThreads = s.wasmThreadsRounds > 0 ? await measureWasmThreads(s.wasmThreadsRounds, log) : null;
  const { preset, frozenPreset } = await presetParts(s, runOn, log);
  const webshop = await benchWebshop(runOn, s.webshop, log);
  await benchWebgpu(s, parts, log);
  const measured = measuredOf(s, parts, tok.size, runOn, trained, t0, {
    envs,
    envPath,
    wasmThreads,
    preset,
    frozenPreset,
    webshop,
  });
  return benchResults.parse({
    ...measured,
    ratios: {
      ...deriveRatios(measured),
      // Same run: the echo-trap preset's learner over its frozen control (lr 0, no update).
      ...(preset && frozenPreset
        ? { 'frozenControlSpeedup.echoTrap': preset.secondsPerIteration / frozenPreset.secondsPerIteration }
        : {}),
    },
    targets: deriveTargets(measured),
  });
}

/** The measurements in the schema's shape, with the roofline, the iteration split and memory. */
function measuredOf(
  s: BenchSettings,
  parts: BackendParts,
  vocab: number,
  runOn: BackendName,
  trained: Awaited<ReturnType<typeof benchTrainer>>,
  t0: number,
  rest: Pick<Measured, 'envs' | 'envPath' | 'wasmThreads' | 'preset' | 'frozenPreset' | 'webshop'>,
): Measured {
  const { backends, rollout, model, dispatch, probe, matmul, kernelCheck } = parts;
  const tr = s.trainer;
  const nt = trained.memory.numTensors;
  const growth = (nt.at(-1) ?? 0) - (nt[Math.min(1, nt.length - 1)] ?? 0);
  return {
    schema: 'starpo-bench/1',
    quick: s.quick,
    createdAt: new Date().toISOString(),
    wallSeconds: (performance.now() - t0) / 1000,
    machine: { cpus: cpus().length, runtime: `node ${process.versions.node}`, tfjs: tf.version.tfjs },
    backends,
    envs: rest.envs,
    envPath: rest.envPath,
    rollout,
    model,
    dispatch,
    kernelCheck,
    probe,
    roofline: {
      formula: ROOFLINE_FORMULA,
      rows: rooflineRows({ vocab, matmul, model, rollout }, (z) => modelConfig(z, vocab, 64)),
    },
    wasmThreads: rest.wasmThreads,
    iteration: {
      backend: runOn,
      size: 'nano',
      env: tr.env,
      algorithm: tr.algorithm,
      groups: tr.groups,
      groupSize: tr.groupSize,
      maxTurns: tr.maxTurns,
      maxTokensPerTurn: tr.maxTokensPerTurn,
      iterations: tr.iterations,
      split: trained.split,
      perIteration: trained.perIteration,
    },
    preset: rest.preset,
    frozenPreset: rest.frozenPreset,
    webshop: rest.webshop,
    memory: {
      backend: runOn,
      iterations: tr.iterations,
      numTensors: nt,
      gpuBytes: trained.memory.gpuBytes,
      tensorGrowth: growth,
      flat: growth === 0,
    },
  };
}
