// The soak: a long run on the nano model with tiny rollouts (2 groups × 2, one turn, a few
// tokens, a random base, no evaluation or MI), watching what must not grow (docs/security.md, "Long runs"):
// the tfjs tensor count and tensor bytes must be flat from the warm-up on (the optimizer's
// slots exist after the first update), and the JS heap must stay within a bound — compared
// as the minimum over a window at the start and at the end, since single readings ride the
// garbage collector's sawtooth (with --expose-gc, a collection runs before each reading). On the
// WebGPU backend each sample also records the GPU buffer bytes tfjs reports (in use by live
// tensors, and allocated: the buffer pool, free buffers included). The pool grows to the run's
// working set and must then stop: the plateau rule (gpuPlateau) passes when the largest allocated
// figure over the last window after the warm-up is at most the largest over the first window plus
// a tolerance of max(1 MiB, 2 % of that first-window maximum); windows as for the heap (a quarter
// of the post-warm-up samples, 3 to 50). On cpu/wasm the GPU fields are null. Used by
// `npm run starpo -- soak` and, shortened, by the unit tests.
import * as tf from '@tensorflow/tfjs';
import { type Config, completeConfig, defaultConfig } from '../core/config.js';
import { gpuMemory } from '../core/model/gpuMemory.js';
import { disposeModel } from '../core/model/params.js';
import { applyAlgorithm } from '../core/rl/algorithms.js';
import { RunSession } from '../core/rl/runSession.js';
import { inProcessPools } from '../envs/pools.js';
import { envIds, envSpec } from '../envs/registry.js';
import { untrainedBase } from '../envs/untrainedBase.js';

export interface SoakOptions {
  iterations: number;
  env: string;
  algorithm: Config['algorithm'];
  seed: number;
  /** Iterations before the baseline is taken (first-use allocations settle). */
  warmup?: number;
  /** Largest heap growth accepted from the baseline to the end, in MiB. */
  maxHeapGrowthMiB?: number;
  /** Called after every iteration with the iteration count done. */
  onIteration?(done: number, report: SoakSample): void;
}

export interface SoakSample {
  numTensors: number;
  numBytes: number;
  heapMiB: number;
  /** Bytes of GPU buffers held by live tensors and pending uniforms (webgpu; null elsewhere). */
  gpuBytesInUse: number | null;
  /** Bytes of all GPU buffers tfjs has created and not destroyed, free pool included (webgpu). */
  gpuBytesAllocated: number | null;
}

/** Allocated GPU bytes over the run (webgpu only) and the plateau rule's verdict. */
export interface GpuBytesReport {
  /** At the end of the warm-up. */
  baseline: number;
  end: number;
  max: number;
  /** Largest over the first / last window after the warm-up. */
  firstWindowMax: number;
  lastWindowMax: number;
  toleranceBytes: number;
  /** Bytes in use by live tensors at the end of the run. */
  inUseEnd: number;
  ok: boolean;
}

export interface SoakReport {
  iterations: number;
  env: string;
  algorithm: string;
  backend: string;
  baseline: SoakSample;
  end: SoakSample;
  /** Smallest and largest tensor count seen after the warm-up. */
  tensorRange: [number, number];
  /** Lowest heap over the last window minus lowest over the first window after the warm-up. */
  heapGrowthMiB: number;
  heapMaxMiB: number;
  /** GPU buffer bytes on webgpu (null on cpu/wasm). */
  gpuBytes: GpuBytesReport | null;
  /** Tensors left over once the trainer, models and base are disposed (must be 0). */
  leakedTensors: number;
  faults: number;
  secondsPerIteration: number;
  /** Tensor count and bytes flat, heap growth within the bound, GPU bytes plateaued (webgpu). */
  ok: boolean;
  problems: string[];
}

const mib = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

/** Window length for comparing the start and the end of `n` post-warm-up samples. */
export function soakWindow(n: number): number {
  return Math.max(3, Math.min(50, Math.floor(n / 4)));
}

/** Smallest tolerance of the plateau rule, in bytes. */
export const GPU_PLATEAU_MIN_TOLERANCE = 1024 * 1024;
/** Relative tolerance of the plateau rule (of the first window's maximum). */
export const GPU_PLATEAU_REL_TOLERANCE = 0.02;

/**
 * The plateau rule on a series of allocated GPU bytes taken after the warm-up: the maximum over
 * the last window must not exceed the maximum over the first window by more than
 * max(1 MiB, 2 % of the first window's maximum). An empty series passes.
 */
export function gpuPlateau(series: readonly number[], window = soakWindow(series.length)) {
  if (series.length === 0) return { firstWindowMax: 0, lastWindowMax: 0, toleranceBytes: 0, ok: true };
  const firstWindowMax = Math.max(...series.slice(0, window));
  const lastWindowMax = Math.max(...series.slice(-window));
  const toleranceBytes = Math.max(
    GPU_PLATEAU_MIN_TOLERANCE,
    Math.round(firstWindowMax * GPU_PLATEAU_REL_TOLERANCE),
  );
  return {
    firstWindowMax,
    lastWindowMax,
    toleranceBytes,
    ok: lastWindowMax <= firstWindowMax + toleranceBytes,
  };
}

function sample(): SoakSample {
  (globalThis as { gc?: () => void }).gc?.();
  const m = tf.memory();
  const g = gpuMemory();
  return {
    numTensors: m.numTensors,
    numBytes: m.numBytes,
    // Node-only module (cli/reliability), so process is available.
    heapMiB: mib(process.memoryUsage().heapUsed),
    gpuBytesInUse: g.inUse,
    gpuBytesAllocated: g.allocated,
  };
}

/** The soak's config: tiny rollouts, nothing periodic but the iterations themselves. */
export function soakConfig(o: Pick<SoakOptions, 'iterations' | 'env' | 'algorithm' | 'seed'>): Config {
  const r = completeConfig(
    {
      ...applyAlgorithm(defaultConfig(), o.algorithm),
      env: o.env,
      seed: o.seed,
      iterations: o.iterations,
      groups: 2,
      groupSize: 2,
      maxTurns: 1,
      maxActionsPerTurn: 1,
      maxActionsPerTraj: 1,
      maxTokensPerTurn: 8,
      contextLength: 128,
      evalEvery: 0,
      miEvery: 0,
      checkpointEvery: 0,
      criticWarmup: 0,
      minibatch: 4,
    },
    envIds(),
  );
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  return r.config;
}

/** What the soak keeps of the samples taken after the warm-up. */
interface Watched {
  tensors: { lo: number; hi: number };
  bytes: { lo: number; hi: number };
  heapMax: number;
  heap: number[];
  gpu: number[];
  gpuMax: number;
}

function watched(): Watched {
  return {
    tensors: { lo: Number.POSITIVE_INFINITY, hi: 0 },
    bytes: { lo: Number.POSITIVE_INFINITY, hi: 0 },
    heapMax: 0,
    heap: [],
    gpu: [],
    gpuMax: 0,
  };
}

/** Adds one post-warm-up sample to `w`. */
function watch(w: Watched, last: SoakSample): void {
  w.tensors.lo = Math.min(w.tensors.lo, last.numTensors);
  w.tensors.hi = Math.max(w.tensors.hi, last.numTensors);
  w.bytes.lo = Math.min(w.bytes.lo, last.numBytes);
  w.bytes.hi = Math.max(w.bytes.hi, last.numBytes);
  w.heapMax = Math.max(w.heapMax, last.heapMiB);
  w.heap.push(last.heapMiB);
  if (last.gpuBytesAllocated !== null) {
    w.gpu.push(last.gpuBytesAllocated);
    w.gpuMax = Math.max(w.gpuMax, last.gpuBytesAllocated);
  }
}

/**
 * The GPU bytes of the run and the plateau rule's verdict over windows of `window` samples (null
 * off webgpu); a growing pool is added to `problems`.
 */
function gpuReport(
  w: Watched,
  baseline: SoakSample,
  last: SoakSample,
  window: number,
  problems: string[],
): GpuBytesReport | null {
  if (w.gpu.length === 0 || baseline.gpuBytesAllocated === null) return null;
  const p = gpuPlateau(w.gpu, window);
  if (!p.ok)
    problems.push(
      `GPU bytes kept growing: ${p.lastWindowMax} at the end against ${p.firstWindowMax} after the warm-up (tolerance ${p.toleranceBytes})`,
    );
  return {
    baseline: baseline.gpuBytesAllocated,
    end: last.gpuBytesAllocated ?? 0,
    max: w.gpuMax,
    ...p,
    inUseEnd: last.gpuBytesInUse ?? 0,
  };
}

/** Runs the soak on the current tfjs backend and reports whether memory stayed flat. */
export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const config = soakConfig(o);
  const warmup = Math.min(o.warmup ?? 5, Math.max(1, o.iterations - 1));
  const maxGrowth = o.maxHeapGrowthMiB ?? 64;
  const spec = envSpec(config.env);
  const before = tf.memory().numTensors;
  const base = untrainedBase(config.env, 'nano', config.contextLength, config.seed);
  let faults = 0;
  const session = new RunSession({
    config,
    base,
    pools: inProcessPools(spec.id),
    callbacks: { onEvent: (e) => (faults += e.type === 'error' ? 1 : 0) },
  });
  let baseline = sample();
  let last = baseline;
  const w = watched();
  const t0 = performance.now();
  try {
    while (!session.done && !session.haltReason) {
      await session.step();
      last = sample();
      if (session.iteration === warmup) baseline = last;
      if (session.iteration >= warmup) watch(w, last);
      o.onIteration?.(session.iteration, last);
    }
  } finally {
    session.dispose();
    disposeModel(base.policy);
  }
  const seconds = (performance.now() - t0) / 1000;
  const { tensors, bytes, heap } = w;
  const problems: string[] = [];
  if (tensors.hi !== tensors.lo)
    problems.push(`tensor count moved between ${tensors.lo} and ${tensors.hi} after the warm-up`);
  if (bytes.hi !== bytes.lo)
    problems.push(`tensor bytes moved between ${bytes.lo} and ${bytes.hi} after the warm-up`);
  const leaked = tf.memory().numTensors - before;
  if (leaked !== 0) problems.push(`${leaked} tensors outlived the run`);
  if (session.haltReason) problems.push(`the run paused: ${session.haltReason}`);
  const window = soakWindow(heap.length);
  const growth =
    heap.length === 0
      ? 0
      : Math.round((Math.min(...heap.slice(-window)) - Math.min(...heap.slice(0, window))) * 10) / 10;
  if (growth > maxGrowth) problems.push(`heap grew by ${growth} MiB (limit ${maxGrowth})`);
  const gpuBytes = gpuReport(w, baseline, last, window, problems);
  return {
    iterations: session.iteration,
    env: config.env,
    algorithm: config.algorithm,
    backend: tf.getBackend(),
    baseline,
    end: last,
    tensorRange: [tensors.lo, tensors.hi],
    heapGrowthMiB: growth,
    heapMaxMiB: w.heapMax,
    gpuBytes,
    leakedTensors: leaked,
    faults,
    secondsPerIteration: Math.round((seconds / Math.max(1, session.iteration)) * 1000) / 1000,
    ok: problems.length === 0,
    problems,
  };
}
