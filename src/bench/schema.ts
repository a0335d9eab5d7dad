// The shape of bench/results.json (one schema for the full and the --quick run), validated with
// zod on write and in the test. The derived ratios and targets are computed in derived.ts.
import { z } from 'zod';

const backend = z.enum(['cpu', 'wasm', 'webgpu']);
const size = z.enum(['nano', 'micro', 'small']);
const ms = z.number().nonnegative();
const counts = z.record(z.string(), z.number());
const split = z.object({
  rolloutMs: ms,
  envMs: ms,
  scoringMs: ms,
  updateMs: ms,
  metricsMs: ms,
  totalMs: ms,
  /** The policy's and the critic's optimizer steps within the update (absent in older files). */
  policyMs: ms.optional(),
  criticMs: ms.optional(),
  /** The update's wait after the policy's last step for the critic's steps (absent in older files). */
  criticWaitMs: ms.optional(),
  /** Each phase's matrix-product GFLOP, where metered (the throughput section). */
  rolloutGflop: z.number().nonnegative().optional(),
  scoringGflop: z.number().nonnegative().optional(),
  updateGflop: z.number().nonnegative().optional(),
});

export const backendEntry = z.object({
  backend,
  available: z.boolean(),
  /** e.g. "software adapter (SwiftShader), correctness only". */
  label: z.string(),
  reason: z.string(),
});

export const modelRow = z.object({
  backend,
  size,
  params: z.number().int().positive(),
  rows: z.number().int().positive(),
  T: z.number().int().positive(),
  scoreRows: z.number().int().positive(),
  firstStepMs: ms,
  stepMs: ms,
  scoreMs: ms,
  fused: z.boolean(),
});

export const dispatchRow = z.object({
  backend,
  size,
  kind: z.enum(['trainingStep', 'decodeStep']),
  rows: z.number().int().positive(),
  T: z.number().int().positive(),
  unfused: z.number().int().nonnegative(),
  fused: z.number().int().nonnegative().nullable(),
  reduction: z.number().nullable(),
  topUnfused: counts,
  topFused: counts.nullable(),
});

export const rolloutRow = z.object({
  backend,
  size,
  rows: z.number().int().positive(),
  promptTokens: z.number().int().positive(),
  newTokens: z.number().int().positive(),
  cachedTokensPerSec: z.number().nonnegative(),
  naiveTokensPerSec: z.number().nonnegative(),
  cacheSpeedup: z.number().nonnegative(),
});

/** Issue 22: a backend's 2-D matrix rate and the model's phases as GFLOP/s and share of it. */
export const rooflineRow = z.object({
  backend,
  label: z.string(),
  /** A software adapter (SwiftShader): its figures are never timed as targets. */
  software: z.boolean(),
  matmul: z.object({
    shapes: z.array(
      z.object({
        m: z.number().int().positive(),
        k: z.number().int().positive(),
        n: z.number().int().positive(),
        ms,
        gflops: z.number().nonnegative(),
      }),
    ),
    gflops: z.number().nonnegative(),
  }),
  phases: z.array(
    z.object({
      phase: z.enum(['trainingStep', 'scoring', 'decoding']),
      size,
      shape: z.string(),
      flops: z.number().nonnegative(),
      ms,
      gflops: z.number().nonnegative(),
      share: z.number().nonnegative(),
    }),
  ),
});

export const rooflineSection = z.object({
  /** How the FLOPs are counted (src/bench/roofline.ts). */
  formula: z.string(),
  rows: z.array(rooflineRow),
});

const threadsSide = z.object({
  stepMs: ms,
  scoreMs: ms,
  decodeTokensPerSec: z.number().nonnegative(),
  matmulGflops: z.number().nonnegative(),
});

/** Issue 22: WASM threads on against off in Chromium (src/bench/wasmThreadsBench.ts). */
export const wasmThreadsSection = z.object({
  ran: z.boolean(),
  /** Why it did not run ('' when it did). */
  reason: z.string(),
  result: z
    .object({
      browser: z.string(),
      rounds: z.number().int().positive(),
      threadCount: z.number().int().positive(),
      reason: z.string(),
      off: threadsSide,
      on: threadsSide,
      /** > 1: threads faster (off/on for times, on/off for rates). */
      speedup: z.object({
        matmul: z.number().nonnegative(),
        trainingStep: z.number().nonnegative(),
        scoring: z.number().nonnegative(),
        decoding: z.number().nonnegative(),
      }),
      maxAbsDiff: z.object({
        trainerMetrics: z.number().nonnegative(),
        stepLosses: z.number().nonnegative(),
      }),
      worstMetric: z.string(),
      iterations: z.number().int().nonnegative(),
    })
    .nullable(),
});

const phaseSplit = split.omit({ totalMs: true });

/**
 * Issue 22: the same preset iterations and the same decoding with the cheaper passes
 * off ("before") and on ("after"), in one run: the speed-ups are load-independent ratios. The
 * old paths were retired after the last such run (perfTargets.ts CHEAPER_PASSES_RECORDED);
 * results files from before keep the section.
 */
export const beforeAfterSection = z.object({
  preset: z
    .object({
      preset: z.string(),
      backend,
      iterations: z.number().int().positive(),
      before: z.object({ secondsPerIteration: z.number().nonnegative(), split: phaseSplit }),
      after: z.object({ secondsPerIteration: z.number().nonnegative(), split: phaseSplit }),
      speedup: z.number().nonnegative(),
    })
    .nullable(),
  decoding: z
    .object({
      backend,
      size,
      rows: z.number().int().positive(),
      promptTokens: z.number().int().positive(),
      newTokens: z.number().int().positive(),
      beforeTokensPerSec: z.number().nonnegative(),
      afterTokensPerSec: z.number().nonnegative(),
      speedup: z.number().nonnegative(),
    })
    .nullable(),
  /** What "before" switched off. */
  switches: z.array(z.string()),
});

export const probeRow = z.object({
  backend,
  size,
  msPerStep: ms.nullable(),
  firstStepMs: ms.nullable(),
  reason: z.string(),
});

export const kernelCheck = z.object({
  ran: z.boolean(),
  ok: z.boolean().nullable(),
  tolerance: z.number(),
  rows: z.array(
    z.object({ name: z.string(), valueDiff: z.number(), gradDiff: z.number().nullable(), ok: z.boolean() }),
  ),
  reason: z.string(),
});

const presetRun = z.object({
  preset: z.string(),
  backend,
  env: z.string(),
  iterations: z.number().int().positive(),
  secondsPerIteration: z.number().nonnegative(),
  split: split.omit({ totalMs: true }),
  projected200Seconds: z.number().nonnegative(),
});

/** WebShop-lite (issue 19): SFT step before/after pieces, and its preset's RL iteration. */
export const webshopSection = z.object({
  backend,
  demos: z.number().int().positive(),
  sft: z.array(
    z.object({
      variant: z.enum(['words-full', 'pieces-targets']),
      vocabulary: z.number().int().positive(),
      batch: z.number().int().positive(),
      meanT: z.number().nonnegative(),
      stepMs: ms,
      steps: z.number().int().nonnegative(),
    }),
  ),
  sftSpeedup: z.number().nonnegative(),
  iteration: presetRun.nullable(),
  iterationRefused: z.string().optional(),
});

export const benchResults = z.object({
  schema: z.literal('starpo-bench/1'),
  quick: z.boolean(),
  createdAt: z.string(),
  wallSeconds: ms,
  machine: z.object({ cpus: z.number().int().positive(), runtime: z.string(), tfjs: z.string() }),
  backends: z.array(backendEntry),
  envs: z.array(
    z.object({
      family: z.string(),
      id: z.string(),
      steps: z.number().int().positive(),
      stepsPerSec: z.number().nonnegative(),
    }),
  ),
  envPath: z.object({
    env: z.string(),
    slots: z.number().int().positive(),
    turns: z.number().int().positive(),
    actionsPerTurn: z.number().int().positive(),
    directStepsPerSec: z.number().nonnegative(),
    perTurnStepsPerSec: z.number().nonnegative(),
    perStepStepsPerSec: z.number().nonnegative(),
  }),
  rollout: z.array(rolloutRow),
  model: z.array(modelRow),
  dispatch: z.array(dispatchRow),
  kernelCheck,
  probe: z.array(probeRow),
  /** Issue 22's roofline; absent in files written before it existed. */
  roofline: rooflineSection.optional(),
  /** Issue 22: WASM threads on/off in Chromium (full runs and `bench-threads`). */
  wasmThreads: wasmThreadsSection.nullable().optional(),
  /** Issue 22: the cheaper passes off and on, same run. */
  beforeAfter: beforeAfterSection.nullable().optional(),
  iteration: z.object({
    backend,
    size,
    env: z.string(),
    algorithm: z.string(),
    groups: z.number().int().positive(),
    groupSize: z.number().int().positive(),
    maxTurns: z.number().int().positive(),
    maxTokensPerTurn: z.number().int().positive(),
    iterations: z.number().int().positive(),
    split,
    perIteration: z.array(split),
  }),
  memory: z.object({
    backend,
    iterations: z.number().int().positive(),
    numTensors: z.array(z.number().int().nonnegative()),
    gpuBytes: z.array(z.number().nonnegative()),
    /** Tensors at the last iteration minus at the second (after the warm-up). */
    tensorGrowth: z.number().int(),
    flat: z.boolean(),
  }),
  /** The echo-trap preset with its shipped base model (full runs; null in --quick). */
  preset: presetRun.nullable(),
  /** The same preset at lr 0 (the frozen control, no update); absent in files written before it. */
  frozenPreset: presetRun.nullable().optional(),
  /** What a checkpoint at the preset's interval costs (issue 39); absent in files written before it. */
  checkpoint: z
    .object({
      preset: z.string(),
      backend,
      iterations: z.number().int().positive(),
      secondsPerIteration: z.number().nonnegative(),
      checkpointMs: z.number().nonnegative(),
      checkpointBytes: z.number().int().nonnegative(),
      every: z.number().int().nonnegative(),
      overhead: z.number().nonnegative(),
    })
    .nullable()
    .optional(),
  /**
   * The serial schedule against the two-worker one (the critic in a worker of its own, issue 40),
   * preset by preset in one run; absent in files written before it.
   */
  schedule: z
    .object({
      presets: z.array(
        z.object({
          preset: z.string(),
          serial: presetRun,
          twoWorkers: presetRun,
          speedup: z.number().nonnegative(),
        }),
      ),
    })
    .nullable()
    .optional(),
  /**
   * A study's throughput (issue 47): the echo-trap preset alone and two runs at once (two
   * processes), runs an hour each way, and a decoding step's kernel count; absent before it.
   */
  throughput: z
    .object({
      preset: z.string(),
      backend,
      iterations: z.number().int().positive(),
      alone: presetRun,
      twoWorkers: presetRun,
      pair: z.tuple([presetRun, presetRun]),
      runsPerHourAlone: z.number().nonnegative(),
      runsPerHourPair: z.number().nonnegative(),
      pairGain: z.number().nonnegative(),
      decodeStepKernels: z.number().int().nonnegative(),
      decodeStepComputeKernels: z.number().int().nonnegative(),
      /** The same-run 2-D product rate (the roof) and each phase of the alone run against it. */
      roofGflops: z.number().nonnegative(),
      phases: z.array(
        z.object({
          phase: z.enum(['rollout', 'scoring', 'update']),
          ms: z.number().nonnegative(),
          gflop: z.number().nonnegative(),
          gflops: z.number().nonnegative(),
          shareOfRoof: z.number().nonnegative(),
        }),
      ),
    })
    .nullable()
    .optional(),
  /** WebShop-lite's SFT step and preset iteration; absent in files written before it existed. */
  webshop: webshopSection.nullable().optional(),
  ratios: z.record(z.string(), z.number().nullable()),
  targets: z.array(
    z.object({
      name: z.string(),
      target: z.string(),
      value: z.number().nullable(),
      met: z.boolean().nullable(),
      /** Where a target is missed: by how much (issue 22). */
      note: z.string().optional(),
    }),
  ),
});

export type BenchResults = z.infer<typeof benchResults>;
export type ModelRow = z.infer<typeof modelRow>;
export type DispatchRow = z.infer<typeof dispatchRow>;
export type RolloutRow = z.infer<typeof rolloutRow>;
export type ProbeRow = z.infer<typeof probeRow>;
export type BackendEntry = z.infer<typeof backendEntry>;
export type KernelCheckResult = z.infer<typeof kernelCheck>;

/** Everything but the derived fields. */
export type Measured = Omit<BenchResults, 'ratios' | 'targets'>;
