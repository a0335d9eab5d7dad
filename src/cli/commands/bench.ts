// `npm run bench`: the performance benchmark (DESIGN §8) — writes bench/results.json and prints
// readable tables. The measuring code is src/bench/; this file parses flags, writes the file and,
// with the internal `--part webgpu`, runs the webgpu measurements inside the child process that
// src/bench/nodeGpu.ts starts with the SwiftShader environment.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { runGpuPart } from '../../bench/gpuPart.js';
import { type BenchSettings, FULL_SETTINGS, QUICK_SETTINGS, runBench } from '../../bench/harness.js';
import { checkKernels } from '../../bench/kernelCheck.js';
import { formatTables } from '../../bench/table.js';
import type { ModelSize } from '../../core/model/config.js';
import { type CompileProgress, precompileShaders } from '../../core/model/precompile.js';
import { untrainedBase } from '../../envs/untrainedBase.js';
import type { BackendName } from '../../workers/backend.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { probeBackends } from '../../workers/probe.js';
import { type CliIo, type Command, UsageError } from '../command.js';

const SIZES: readonly ModelSize[] = ['nano', 'micro', 'small'];
const BACKENDS: readonly BackendName[] = ['cpu', 'wasm', 'webgpu'];

interface Args {
  settings: BenchSettings;
  out: string;
  part: 'webgpu' | 'kernels' | null;
}

function parseArgs(args: string[]): Args {
  const quick = args.includes('--quick');
  let settings: BenchSettings = structuredClone(quick ? QUICK_SETTINGS : FULL_SETTINGS);
  let out = 'bench/results.json';
  let part: Args['part'] = null;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--quick') continue;
    const value = args[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--out') out = value;
    else if (flag === '--sizes') {
      const sizes = value.split(',');
      const bad = sizes.find((z) => !SIZES.includes(z as ModelSize));
      if (bad !== undefined) throw new UsageError(`--sizes: unknown size "${bad}" (nano, micro, small)`);
      settings = {
        ...settings,
        sizes: sizes as ModelSize[],
        gpu: { ...settings.gpu, sizes: sizes as ModelSize[] },
      };
    } else if (flag === '--backends') {
      const backends = value.split(',');
      const bad = backends.find((b) => !BACKENDS.includes(b as BackendName));
      if (bad !== undefined) throw new UsageError(`--backends: unknown backend "${bad}" (cpu, wasm, webgpu)`);
      settings = { ...settings, backends: backends as BackendName[] };
    } else if (flag === '--iterations') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 2) throw new UsageError('--iterations must be an integer ≥ 2');
      settings = { ...settings, trainer: { ...settings.trainer, iterations: n } };
    } else if (flag === '--part') {
      if (value !== 'webgpu' && value !== 'kernels')
        throw new UsageError('--part: "webgpu" or "kernels" (internal)');
      part = value;
    } else throw new UsageError(`unknown option "${flag}"`);
  }
  return { settings, out, part };
}

/** The child's side: webgpu measurements (or only the kernel check) as one JSON line on stdout. */
async function webgpuPart(s: BenchSettings, io: CliIo, kernelsOnly: boolean): Promise<number> {
  await setupNodeBackend('webgpu');
  try {
    if (kernelsOnly) {
      // Warm up the shaders of the kernel check's model first: its results must hold with them.
      const progress: CompileProgress[] = [];
      const precompile = await precompileShaders(
        { vocabSize: 37, dModel: 32, nLayers: 2, nHeads: 4, context: 24, mlpRatio: 4 },
        { rows: 3, T: 12, decodeRows: 3, promptTokens: 8 },
        (p) => progress.push(p),
      );
      const report = await checkKernels();
      io.stdout.write(`${JSON.stringify({ ...report, precompile: { ...precompile, progress } })}\n`);
      return 0;
    }
    const vocab = untrainedBase(s.trainer.env, 'nano', s.trainer.context, 1).tokenizer.size;
    const shape = { ...s.gpu.step, vocab };
    const log = (line: string) => io.stderr.write(`bench: ${line}\n`);
    // A JSON line after each part: the parent keeps the last one if this process runs out of time.
    const part = await runGpuPart(s.gpu.sizes, shape, 1, log, (p) =>
      io.stdout.write(`${JSON.stringify({ ...p, probe: [], partial: true })}\n`),
    );
    const probe = await probeBackends([s.gpu.sizes[0] ?? 'nano'], ['webgpu'], {
      select: async () => (tf.getBackend() === 'webgpu' ? '' : 'webgpu is not active'),
      shape,
      reps: 1,
    });
    io.stdout.write(`${JSON.stringify({ ...part, probe })}\n`);
    return 0;
  } finally {
    // Dawn keeps Node alive while navigator.gpu exists (reference/playground-tfjs.md §B8).
    delete (globalThis as { navigator?: unknown }).navigator;
  }
}

export const benchCommand: Command = {
  name: 'bench',
  summary:
    'Performance benchmark: envs, rollout, update/scoring per backend, dispatches, iteration split (JSON + tables)',
  usage: [
    'usage: npm run bench -- [--quick] [--backends cpu,wasm,webgpu] [--sizes nano,micro] [--iterations 50]',
    '                        [--out bench/results.json]',
    '',
    'Measures, in one run: env steps/s per family; the env path with one message per turn against',
    'one per step; rollout tokens/s with the KV cache and with naive recompute; update and scoring',
    'time per model size and backend; kernels (cpu, wasm) or dispatches (webgpu, with and without',
    'the fused kernels) per training step; the backend probe; real trainer iterations split into',
    'rollout / env / scoring / update / metrics; the tensor count over the iterations. WebGPU runs',
    'in a child process on the SwiftShader software adapter when it is installed: correctness and',
    'dispatch counts only, its times are not speed figures. Writes JSON to --out and prints tables.',
    '--quick: a small version with the same JSON schema (cpu and wasm, nano) for CI.',
  ].join('\n'),
  async run(args, io) {
    const a = parseArgs(args);
    if (a.part !== null) return webgpuPart(a.settings, io, a.part === 'kernels');
    const results = await runBench(a.settings, (line) => io.stderr.write(`${line}\n`));
    await mkdir(dirname(a.out), { recursive: true });
    await writeFile(a.out, `${JSON.stringify(results, null, 2)}\n`);
    io.stdout.write(`${formatTables(results)}\nwritten to ${a.out}\n`);
    return 0;
  },
};
