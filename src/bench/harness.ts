// `npm run bench` in one function: env steps/s per family, the env path against
// one message per step, rollout tokens/s with and without the KV cache, update and scoring time
// per size and backend, kernels or dispatches per training step, the backend probe, real
// trainer iterations split by phase, and the tensor count over the iterations — cpu and wasm
// in this process, webgpu in a child process on the software adapter when one is installed.
// Node only (child process, wasm binaries from node_modules).

import { cpus } from 'node:os';
import * as tf from '@tensorflow/tfjs';
import { type ModelSize, modelConfig } from '../core/model/config.js';
import { disposeModel } from '../core/model/params.js';
import { resolveConfig } from '../core/resolve.js';
import { FROZEN_CONTROL } from '../core/rl/frozenControl.js';
import { Rng } from '../core/rng.js';
import { inProcessPools } from '../envs/pools.js';
import { envIds, envSpec } from '../envs/registry.js';
import { untrainedBase } from '../envs/untrainedBase.js';
import type { BackendName } from '../workers/backend.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import { PROBE_SHAPE, probeBackends } from '../workers/probe.js';
import {
  type StepShape,
  stepModel,
  syntheticMinibatch,
  timeSteps,
  trainingStep,
} from '../workers/stepTiming.js';
import { deriveRatios, deriveTargets } from './derived.js';
import { countDispatches } from './dispatch.js';
import { benchEnvFamilies, benchEnvPath } from './envBench.js';
import type { GpuChildSettings } from './gpuChild.js';
import type { GpuPart } from './gpuPart.js';
import { runGpuChild, swiftshaderIcd } from './nodeGpu.js';
import { benchPreset } from './presetBench.js';
import { benchRollout } from './rolloutBench.js';
import { MATMUL_SHAPES, type MatmulRate, measureMatmul, rooflineRows } from './roofline.js';
import {
  type BackendEntry,
  type BenchResults,
  benchResults,
  type DispatchRow,
  type Measured,
  type ModelRow,
  type ProbeRow,
  type RolloutRow,
} from './schema.js';
import { benchTrainer } from './trainerBench.js';
import { benchWasmThreads } from './wasmThreadsBench.js';
import { benchWebshop, type WebshopBenchSettings } from './webshopBench.js';

export interface BenchSettings {
  quick: boolean;
  /** Rounds of WASM threads off/on in Chromium (wasmThreadsBench.ts; 0: skipped). */
  wasmThreadsRounds: number;
  backends: BackendName[];
  sizes: ModelSize[];
  envSteps: number;
  envPath: { env: string; slots: number; turns: number; actions: number };
  rollout: { rows: number; prompt: number; newTokens: number };
  /** The JS CPU backend is 5–30× slower than WASM: fewer rows and only the first size there. */
  cpu: { rolloutRows: number; sizes: ModelSize[] };
  step: Omit<StepShape, 'vocab'>;
  reps: number;
  trainer: {
    env: string;
    algorithm: 'starpo-ppo';
    groups: number;
    groupSize: number;
    maxTurns: number;
    maxTokensPerTurn: number;
    context: number;
    iterations: number;
  };
  gpu: { sizes: ModelSize[]; step: Omit<StepShape, 'vocab'>; timeoutMs: number };
  /** The echo-trap preset with its shipped base model: iterations to time (0: skipped). */
  presetIterations: number;
  /** WebShop-lite's SFT step (before/after pieces) and preset iteration (webshopBench.ts). */
  webshop: WebshopBenchSettings;
}

export const FULL_SETTINGS: BenchSettings = {
  quick: false,
  wasmThreadsRounds: 2,
  backends: ['cpu', 'wasm', 'webgpu'],
  sizes: ['nano', 'micro'],
  envSteps: 20_000,
  envPath: { env: 'minigrid/DoorKey-5x5', slots: 64, turns: 20, actions: 2 },
  rollout: { rows: 64, prompt: 64, newTokens: 16 },
  cpu: { rolloutRows: 16, sizes: ['nano'] },
  step: { rows: 8, T: 128, scoreRows: 16 },
  reps: 3,
  trainer: {
    env: 'minigrid/DoorKey-5x5',
    algorithm: 'starpo-ppo',
    groups: 4,
    groupSize: 4,
    maxTurns: 3,
    maxTokensPerTurn: 24,
    context: 256,
    iterations: 50,
  },
  gpu: { sizes: ['nano', 'micro'], step: { rows: 8, T: 64, scoreRows: 8 }, timeoutMs: 900_000 },
  presetIterations: 6,
  webshop: { demos: 300, batch: 8, sftSteps: 6, iterations: 4 },
};

/** Small enough for CI (well under a minute on two cores); same schema, webgpu off by default. */
export const QUICK_SETTINGS: BenchSettings = {
  quick: true,
  wasmThreadsRounds: 0,
  backends: ['cpu', 'wasm'],
  sizes: ['nano'],
  envSteps: 300,
  envPath: { env: 'minigrid/DoorKey-5x5', slots: 8, turns: 4, actions: 2 },
  rollout: { rows: 8, prompt: 16, newTokens: 4 },
  cpu: { rolloutRows: 8, sizes: ['nano'] },
  step: { rows: 2, T: 32, scoreRows: 4 },
  reps: 1,
  trainer: {
    env: 'minigrid/DoorKey-5x5',
    algorithm: 'starpo-ppo',
    groups: 2,
    groupSize: 2,
    maxTurns: 2,
    maxTokensPerTurn: 8,
    context: 128,
    iterations: 3,
  },
  gpu: { sizes: ['nano'], step: { rows: 2, T: 32, scoreRows: 2 }, timeoutMs: 240_000 },
  presetIterations: 0,
  webshop: { demos: 20, batch: 2, sftSteps: 1, iterations: 0 },
};

const SOFTWARE_LABEL = 'software adapter (SwiftShader), correctness only';

/** The FLOP count behind the roofline, in words (src/bench/roofline.ts has the derivation). */
const ROOFLINE_FORMULA =
  'matrix products only, 2 FLOPs per multiply-add; N = B·T, F = 4D, S keys, V vocabulary, L layers. ' +
  'Forward = L·(8·N·D² + 4·N·D·F + 4·B·T·S·D) + 2·M·D·V (LM head on M rows; the embedding is a ' +
  'gather, no product). Training step = 3 × forward (M = B·(T−1)); scoring = forward (M = B·(T−1)); ' +
  'decoding n tokens = prefill (T = S = prompt, M = B) + n−1 cached steps (T = 1, ' +
  'S = prompt + i, M = B). Share = phase GFLOP/s ÷ the same-run 2-D matMul rate of the backend.';

async function select(backend: BackendName): Promise<string> {
  try {
    await setupNodeBackend(backend);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

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

/** Kernels of one training step on the active cpu/wasm backend (no fused path there). */
async function kernelRow(backend: BackendName, size: ModelSize, shape: StepShape): Promise<DispatchRow> {
  const { policy, optimizer } = stepModel(size, shape);
  const mb = syntheticMinibatch(new Rng(9), shape.rows, shape.T, shape.vocab);
  try {
    await trainingStep(policy, optimizer, mb);
    const c = await countDispatches(() => trainingStep(policy, optimizer, mb));
    return {
      backend,
      size,
      kind: 'trainingStep',
      rows: shape.rows,
      T: shape.T,
      unfused: c.dispatches,
      fused: null,
      reduction: null,
      topUnfused: c.byName,
      topFused: null,
    };
  } finally {
    optimizer.dispose();
    disposeModel(policy);
  }
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

  const backends: BackendEntry[] = [];
  const rollout: RolloutRow[] = [];
  const model: ModelRow[] = [];
  const dispatch: DispatchRow[] = [];
  const probe: ProbeRow[] = [];
  const matmul: { backend: BackendName; label: string; software: boolean; rate: MatmulRate }[] = [];
  for (const backend of ['cpu', 'wasm'] as const) {
    if (!s.backends.includes(backend)) {
      backends.push({ backend, available: false, label: '', reason: 'not requested' });
      continue;
    }
    const reason = await select(backend);
    backends.push({
      backend,
      available: reason === '',
      label: backend === 'wasm' ? 'WASM (SIMD)' : 'JS CPU',
      reason,
    });
    if (reason !== '') continue;
    // The roof: a plain 2-D product's rate on this backend, in this run (the JS CPU backend is
    // ~20× slower than WASM: its two smaller shapes, one product a round, are enough there).
    log(`bench: ${backend} matrix-product rate`);
    matmul.push({
      backend,
      label: backend === 'wasm' ? 'WASM (SIMD)' : 'JS CPU',
      software: false,
      rate: backend === 'cpu' ? await measureMatmul(MATMUL_SHAPES.slice(2), 3, 1) : await measureMatmul(),
    });
    log(`bench: ${backend} rollout`);
    const rows = backend === 'cpu' ? s.cpu.rolloutRows : s.rollout.rows;
    const r = await benchRollout(tok, 'nano', rows, s.rollout.prompt, s.rollout.newTokens);
    rollout.push({ backend, ...r });
    const shape = { ...s.step, vocab: tok.size };
    for (const size of backend === 'cpu' ? s.sizes.filter((z) => s.cpu.sizes.includes(z)) : s.sizes) {
      log(`bench: ${backend} ${size} update and scoring`);
      const t = await timeSteps(size, shape, s.reps);
      model.push({
        backend,
        size,
        rows: shape.rows,
        T: shape.T,
        scoreRows: shape.scoreRows,
        fused: false,
        ...t,
      });
      dispatch.push(await kernelRow(backend, size, shape));
    }
  }
  const cpuWasm = s.backends.filter((b): b is 'cpu' | 'wasm' => b !== 'webgpu');
  if (cpuWasm.length > 0) {
    log('bench: probe');
    const shape = s.quick ? { ...s.step, vocab: tok.size } : { ...PROBE_SHAPE, vocab: tok.size };
    probe.push(...(await probeBackends([s.sizes[0] ?? 'nano'], cpuWasm, { select, shape, reps: s.reps })));
  }

  // Trainer iterations on the fastest of cpu/wasm for nano.
  const runOn: BackendName = backends.find((b) => b.backend === 'wasm' && b.available) ? 'wasm' : 'cpu';
  await select(runOn);
  log(`bench: ${s.trainer.iterations} trainer iterations on ${runOn}`);
  const tr = s.trainer;
  // Built like every run's config (core/resolve.ts): defaults ← the algorithm ← these edits.
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
  const spec = envSpec(tr.env);
  const trained = await benchTrainer(cfg.values, base, inProcessPools(spec.id), tr.iterations);
  const nt = trained.memory.numTensors;
  const growth = (nt.at(-1) ?? 0) - (nt[Math.min(1, nt.length - 1)] ?? 0);
  // WASM threads on/off: in Chromium (Node's tfjs-wasm has no threads), a build of bench/browser.
  const wasmThreads = s.wasmThreadsRounds > 0 ? await measureWasmThreads(s.wasmThreadsRounds, log) : null;
  let preset: BenchResults['preset'] = null;
  let frozenPreset: BenchResults['frozenPreset'] = null;
  if (s.presetIterations > 0) {
    log(`bench: echo-trap preset, ${s.presetIterations} iterations on ${runOn}`);
    preset = await benchPreset('echo-trap', runOn, s.presetIterations);
    // Its frozen control (lr 0) skips the update: what a null lane costs beside a learner.
    log(`bench: echo-trap preset's frozen control, ${s.presetIterations} iterations on ${runOn}`);
    frozenPreset = await benchPreset('echo-trap', runOn, s.presetIterations, FROZEN_CONTROL);
  }
  const webshop = await benchWebshop(runOn, s.webshop, log);

  // WebGPU in a child process (Dawn on SwiftShader).
  let gpu: (GpuPart & { probe: ProbeRow[] }) | null = null;
  let kernelCheck: BenchResults['kernelCheck'] = {
    ran: false,
    ok: null,
    tolerance: 1e-4,
    rows: [],
    reason: '',
  };
  const icd = swiftshaderIcd();
  if (!s.backends.includes('webgpu')) {
    backends.push({ backend: 'webgpu', available: false, label: '', reason: 'not requested' });
    kernelCheck.reason = 'webgpu not requested';
  } else if (!icd) {
    backends.push({
      backend: 'webgpu',
      available: false,
      label: '',
      reason: 'no SwiftShader Vulkan ICD found (set STARPO_VK_ICD)',
    });
    kernelCheck.reason = 'no webgpu adapter';
  } else {
    log('bench: webgpu (child process, software adapter)');
    try {
      const child: GpuChildSettings = {
        sizes: s.gpu.sizes,
        step: s.gpu.step,
        env: s.trainer.env,
        context: s.trainer.context,
      };
      gpu = (await runGpuChild(['webgpu', JSON.stringify(child)], icd, log, s.gpu.timeoutMs)) as GpuPart & {
        probe: ProbeRow[];
      };
      const partial = (gpu as { partial?: boolean }).partial === true;
      backends.push({
        backend: 'webgpu',
        available: true,
        label: SOFTWARE_LABEL,
        reason: partial ? `partial: the child ran out of its ${s.gpu.timeoutMs / 1000} s` : '',
      });
      model.push(...gpu.model);
      if (gpu.matmul)
        matmul.push({ backend: 'webgpu', label: SOFTWARE_LABEL, software: true, rate: gpu.matmul });
      dispatch.push(...gpu.dispatch);
      probe.push(...gpu.probe);
      kernelCheck = gpu.kernelCheck;
    } catch (err) {
      backends.push({ backend: 'webgpu', available: false, label: '', reason: (err as Error).message });
      kernelCheck.reason = (err as Error).message;
    }
  }
  const measured: Measured = {
    schema: 'starpo-bench/1',
    quick: s.quick,
    createdAt: new Date().toISOString(),
    wallSeconds: (performance.now() - t0) / 1000,
    machine: { cpus: cpus().length, runtime: `node ${process.versions.node}`, tfjs: tf.version.tfjs },
    backends,
    envs,
    envPath,
    rollout,
    model,
    dispatch,
    kernelCheck,
    probe,
    roofline: {
      formula: ROOFLINE_FORMULA,
      rows: rooflineRows({ vocab: tok.size, matmul, model, rollout }, (z) => modelConfig(z, tok.size, 64)),
    },
    wasmThreads,
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
    preset,
    frozenPreset,
    webshop,
    memory: {
      backend: runOn,
      iterations: tr.iterations,
      numTensors: nt,
      gpuBytes: trained.memory.gpuBytes,
      tensorGrowth: growth,
      flat: growth === 0,
    },
  };
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
