// The child process of the WebGPU measurements (nodeGpu.ts starts it with the SwiftShader
// environment): `node --import tsx src/bench/gpuChild.ts kernels` runs the kernel check after a
// shader warm-up; `… webgpu '<json GpuChildSettings>'` runs the webgpu part of the benchmark and
// the probe. Each writes JSON lines on stdout (the parent keeps the last; a part that ran out of
// time is marked partial) and `bench: …` progress lines on stderr.
import * as tf from '@tensorflow/tfjs';
import type { ModelSize } from '../core/model/config.js';
import { type CompileProgress, precompileShaders } from '../core/model/precompile.js';
import { untrainedBase } from '../envs/untrainedBase.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import { probeBackends } from '../workers/probe.js';
import type { StepShape } from '../workers/stepTiming.js';
import { runGpuPart } from './gpuPart.js';
import { checkKernels } from './kernelCheck.js';

/** What the parent asks the webgpu part to measure. */
export interface GpuChildSettings {
  sizes: ModelSize[];
  step: Omit<StepShape, 'vocab'>;
  /** The env and context whose untrained vocabulary sizes the synthetic batches. */
  env: string;
  context: number;
}

const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function kernels(): Promise<void> {
  // Warm up the shaders of the kernel check's model first: its results must hold with them.
  const progress: CompileProgress[] = [];
  const precompile = await precompileShaders(
    { vocabSize: 37, dModel: 32, nLayers: 2, nHeads: 4, context: 24, mlpRatio: 4 },
    { rows: 3, T: 12, decodeRows: 3, promptTokens: 8 },
    (p) => progress.push(p),
  );
  const report = await checkKernels();
  out({ ...report, precompile: { ...precompile, progress } });
}

async function webgpu(s: GpuChildSettings): Promise<void> {
  const vocab = untrainedBase(s.env, 'nano', s.context, 1).tokenizer.size;
  const shape = { ...s.step, vocab };
  // A JSON line after each part: the parent keeps the last one if this process runs out of time.
  const part = await runGpuPart(s.sizes, shape, 1, log, (p) => out({ ...p, probe: [], partial: true }));
  const probe = await probeBackends([s.sizes[0] ?? 'nano'], ['webgpu'], {
    select: async () => (tf.getBackend() === 'webgpu' ? '' : 'webgpu is not active'),
    shape,
    reps: 1,
  });
  out({ ...part, probe });
}

async function main(args: string[]): Promise<void> {
  const [what, settings] = args;
  if (what !== 'kernels' && what !== 'webgpu')
    throw new Error(`gpuChild: "kernels" or "webgpu", not ${what}`);
  await setupNodeBackend('webgpu');
  try {
    if (what === 'kernels') await kernels();
    else await webgpu(JSON.parse(settings ?? '') as GpuChildSettings);
  } finally {
    // Dawn keeps Node alive while navigator.gpu exists.
    delete (globalThis as { navigator?: unknown }).navigator;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`gpuChild: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
