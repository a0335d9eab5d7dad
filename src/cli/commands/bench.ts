// `npm run bench`: the performance benchmark — writes bench/results.json and prints
// readable tables. The measuring code is src/bench/ (the webgpu part in the child process that
// src/bench/nodeGpu.ts starts with the SwiftShader environment, src/bench/gpuChild.ts); this file
// parses flags and writes the file.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { benchCheckpoint } from '../../bench/checkpointBench.js';
import { type BenchSettings, FULL_SETTINGS, QUICK_SETTINGS, runBench } from '../../bench/harness.js';
import { benchPreset } from '../../bench/presetBench.js';
import { benchSchedule, formatSchedule, SCHEDULE_ITERATIONS } from '../../bench/scheduleBench.js';
import { type BenchResults, benchResults } from '../../bench/schema.js';
import { formatTables, formatWebshop } from '../../bench/table.js';
import { benchThroughput, formatThroughput } from '../../bench/throughputBench.js';
import { benchWebshop } from '../../bench/webshopBench.js';
import type { ModelSize } from '../../core/model/config.js';
import { FROZEN_CONTROL } from '../../core/rl/frozenControl.js';
import type { BackendName } from '../../workers/backend.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';

const SIZES: readonly ModelSize[] = ['nano', 'micro', 'small'];
const BACKENDS: readonly BackendName[] = ['cpu', 'wasm', 'webgpu'];

interface Args {
  settings: BenchSettings;
  out: string;
  /** Run one section only and update it in the existing --out file. */
  only: 'webshop' | 'frozen-control' | 'checkpoint' | 'schedule' | 'throughput' | null;
}

const FLAGS: FlagSpec[] = [
  {
    name: 'quick',
    kind: 'bool',
    help: 'a small version with the same JSON schema (cpu and wasm, nano), for CI',
  },
  { name: 'out', kind: 'string', help: 'the results file (default bench/results.json)' },
  {
    name: 'only',
    kind: 'string',
    help: 'one section into the existing --out file: webshop, frozen-control, checkpoint or schedule',
  },
  { name: 'sizes', kind: 'string', help: 'model sizes, comma-separated: nano, micro, small' },
  { name: 'backends', kind: 'string', help: 'backends, comma-separated: cpu, wasm, webgpu' },
  { name: 'iterations', kind: 'int', help: 'trainer iterations (at least 2)' },
];

function parseBenchArgs(args: string[]): Args {
  const f = parseFlags(args, FLAGS);
  let settings: BenchSettings = structuredClone(f.quick === true ? QUICK_SETTINGS : FULL_SETTINGS);
  const out = typeof f.out === 'string' ? f.out : 'bench/results.json';
  let only: Args['only'] = null;
  if (f.only !== undefined) {
    if (
      f.only !== 'webshop' &&
      f.only !== 'frozen-control' &&
      f.only !== 'checkpoint' &&
      f.only !== 'schedule' &&
      f.only !== 'throughput'
    )
      throw new UsageError(
        '--only: "webshop" (the WebShop-lite section), "frozen-control" (the echo-trap preset and its frozen control), "checkpoint" (what its checkpoints cost), "schedule" (a second worker, for the critic or half the reference scoring, against the serial schedule) or "throughput" (the echo-trap preset alone and two runs at once, and a decoding step\'s kernels)',
      );
    only = f.only;
  }
  if (typeof f.sizes === 'string') {
    const sizes = f.sizes.split(',');
    const bad = sizes.find((z) => !SIZES.includes(z as ModelSize));
    if (bad !== undefined) throw new UsageError(`--sizes: unknown size "${bad}" (nano, micro, small)`);
    settings = {
      ...settings,
      sizes: sizes as ModelSize[],
      gpu: { ...settings.gpu, sizes: sizes as ModelSize[] },
    };
  }
  if (typeof f.backends === 'string') {
    const backends = f.backends.split(',');
    const bad = backends.find((b) => !BACKENDS.includes(b as BackendName));
    if (bad !== undefined) throw new UsageError(`--backends: unknown backend "${bad}" (cpu, wasm, webgpu)`);
    settings = { ...settings, backends: backends as BackendName[] };
  }
  if (f.iterations !== undefined) {
    const n = Number(f.iterations);
    if (n < 2) throw new UsageError('--iterations must be an integer ≥ 2');
    settings = { ...settings, trainer: { ...settings.trainer, iterations: n } };
  }
  return { settings, out, only };
}

/** The existing --out file, for a section to be replaced in it. */
async function existingResults(a: Args): Promise<BenchResults> {
  try {
    return benchResults.parse(JSON.parse(await readFile(a.out, 'utf8')));
  } catch (err) {
    throw new UsageError(
      `--only ${a.only} updates an existing results file: ${a.out}: ${(err as Error).message}`,
    );
  }
}

/** The backend a section run alone measures on, set up: WASM when it is asked for, else the CPU. */
async function sectionBackend(a: Args): Promise<'wasm' | 'cpu'> {
  const backend = a.settings.backends.includes('wasm') ? 'wasm' : 'cpu';
  await setupNodeBackend(backend);
  return backend;
}

/** `--only webshop`: measures the WebShop-lite section and replaces it in the existing file. */
async function webshopOnly(a: Args, io: CliIo): Promise<number> {
  const existing = await existingResults(a);
  const backend = await sectionBackend(a);
  const webshop = await benchWebshop(backend, a.settings.webshop, (line) => io.stderr.write(`${line}\n`));
  const results = benchResults.parse({ ...existing, webshop });
  await writeFile(a.out, `${JSON.stringify(results, null, 2)}\n`);
  io.stdout.write(`${formatWebshop(webshop)}\nwritten to ${a.out}\n`);
  return 0;
}

/**
 * `--only frozen-control`: the echo-trap preset and its frozen control (lr 0: rollouts and
 * measurements, no update) on the same seed and backend, their time per iteration and the
 * ratio, replaced in the existing --out file.
 */
async function frozenControlOnly(a: Args, io: CliIo): Promise<number> {
  const existing = await existingResults(a);
  const backend = await sectionBackend(a);
  const n = Math.max(2, a.settings.presetIterations);
  io.stderr.write(`bench: echo-trap preset and its frozen control, ${n} iterations each on ${backend}\n`);
  const preset = await benchPreset('echo-trap', backend, n);
  const frozenPreset = await benchPreset('echo-trap', backend, n, FROZEN_CONTROL);
  const ratio = Number((preset.secondsPerIteration / frozenPreset.secondsPerIteration).toFixed(2));
  const results = benchResults.parse({
    ...existing,
    preset,
    frozenPreset,
    ratios: { ...existing.ratios, 'frozenControlSpeedup.echoTrap': ratio },
  });
  await writeFile(a.out, `${JSON.stringify(results, null, 2)}\n`);
  io.stdout.write(
    `echo-trap preset ${preset.secondsPerIteration.toFixed(2)} s/iteration, its frozen control ${frozenPreset.secondsPerIteration.toFixed(2)} s/iteration: ${ratio}× (${backend}, ${n} iterations each)\nwritten to ${a.out}\n`,
  );
  return 0;
}

/**
 * `--only checkpoint`: the echo-trap preset with a checkpoint after each iteration, the
 * checkpoint's median time and size and its share of the iterations between two at the preset's
 * interval, replaced in the existing --out file.
 */
async function checkpointOnly(a: Args, io: CliIo): Promise<number> {
  const existing = await existingResults(a);
  const backend = await sectionBackend(a);
  const n = Math.max(2, a.settings.presetIterations);
  io.stderr.write(`bench: echo-trap preset, ${n} iterations each followed by a checkpoint, on ${backend}\n`);
  const checkpoint = await benchCheckpoint('echo-trap', backend, n);
  const overhead = Number(checkpoint.overhead.toFixed(4));
  const results = benchResults.parse({
    ...existing,
    checkpoint,
    ratios: { ...existing.ratios, 'checkpointOverhead.echoTrap': overhead },
  });
  await writeFile(a.out, `${JSON.stringify(results, null, 2)}\n`);
  io.stdout.write(
    `a checkpoint of the echo-trap preset: ${checkpoint.checkpointMs.toFixed(0)} ms, ${(checkpoint.checkpointBytes / 2 ** 20).toFixed(1)} MiB; an iteration ${checkpoint.secondsPerIteration.toFixed(2)} s; every ${checkpoint.every} iterations it adds ${(100 * overhead).toFixed(2)}% (${backend}, ${n} iterations)\nwritten to ${a.out}\n`,
  );
  return 0;
}

/**
 * `--only schedule`: the echo-trap, stable (StarPO-S at the echo-trap setting) and webshop presets on
 * the serial schedule and with a second worker thread (the critic, or for GRPO half the reference
 * scoring), same run, replaced in the existing --out file.
 */
async function scheduleOnly(a: Args, io: CliIo): Promise<number> {
  const existing = await existingResults(a);
  const backend = await sectionBackend(a);
  // A warm-up and 10 timed iterations, one of which measures, as in a run (SCHEDULE_ITERATIONS).
  const n = Math.max(SCHEDULE_ITERATIONS, a.settings.presetIterations);
  // echo-trap (GRPO) has no critic: its second worker scores half the reference's groups and measures.
  const schedule = await benchSchedule(['echo-trap', 'stable', 'webshop'], backend, n, (line) =>
    io.stderr.write(`${line}\n`),
  );
  const ratios = Object.fromEntries(
    schedule.presets.map((r) => [
      `scheduleSpeedup.${r.preset.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}`,
      r.speedup,
    ]),
  );
  const results = benchResults.parse({ ...existing, schedule, ratios: { ...existing.ratios, ...ratios } });
  await writeFile(a.out, `${JSON.stringify(results, null, 2)}\n`);
  io.stdout.write(`${formatSchedule(schedule)}\n(${backend}, ${n} iterations each)\nwritten to ${a.out}\n`);
  return 0;
}

/**
 * `--only throughput`: the echo-trap preset alone and two runs at once (two processes, one core
 * each), the runs an hour and their ratio, a decoding step's kernel count; the alone run is also
 * the headline `preset` entry. Replaced in the existing --out file.
 */
async function throughputOnly(a: Args, io: CliIo): Promise<number> {
  const existing = await existingResults(a);
  const backend = await sectionBackend(a);
  const n = Math.max(SCHEDULE_ITERATIONS, a.settings.presetIterations);
  const throughput = await benchThroughput('echo-trap', backend, n, (line) => io.stderr.write(`${line}\n`));
  const results = benchResults.parse({
    ...existing,
    preset: throughput.alone,
    throughput,
    ratios: { ...existing.ratios, 'throughput.pairGain': throughput.pairGain },
  });
  await writeFile(a.out, `${JSON.stringify(results, null, 2)}\n`);
  io.stdout.write(
    `${formatThroughput(throughput)}\n(${backend}, ${n} iterations each)\nwritten to ${a.out}\n`,
  );
  return 0;
}

export const benchCommand: Command = {
  name: 'bench',
  summary:
    'Performance benchmark: envs, rollout, update/scoring per backend, dispatches, iteration split (JSON + tables)',
  usage: [
    'usage: npm run bench -- [--quick] [--backends cpu,wasm,webgpu] [--sizes nano,micro] [--iterations 50]',
    '                        [--out bench/results.json] [--only webshop|frozen-control|checkpoint|schedule|throughput]',
    '',
    'Measures, in one run: env steps/s per family; the env path with one message per turn against',
    'one per step; rollout tokens/s with the KV cache and with naive recompute; update and scoring',
    'time per model size and backend; kernels (cpu, wasm) or dispatches (webgpu, with and without',
    'the fused kernels) per training step; the backend probe; real trainer iterations split into',
    'rollout / env / scoring / update / metrics; the tensor count over the iterations. WebGPU runs',
    'in a child process on the SwiftShader software adapter when it is installed: correctness and',
    'dispatch counts only, its times are not speed figures. Writes JSON to --out and prints tables.',
    '--quick: a small version with the same JSON schema (cpu and wasm, nano) for CI.',
    '--only webshop: only the WebShop-lite section (SFT step before/after pieces, the webshop',
    "preset's iteration split), written into the existing --out file; --only frozen-control: the",
    'echo-trap preset and its frozen control per iteration and their ratio, written the same way;',
    '--only schedule: the echo-trap, stable and webshop presets with the critic after the policy in one',
    'thread and in a worker of its own beside it, seconds per iteration and their ratio;',
    '--only throughput: the echo-trap preset alone and two runs at once in two processes, the runs an',
    "hour each way and their ratio, and a decoding step's kernel calls on its model.",
    '',
    flagHelp(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const a = parseBenchArgs(args);
    if (a.only === 'webshop') return webshopOnly(a, io);
    if (a.only === 'checkpoint') return checkpointOnly(a, io);
    if (a.only === 'frozen-control') return frozenControlOnly(a, io);
    if (a.only === 'schedule') return scheduleOnly(a, io);
    if (a.only === 'throughput') return throughputOnly(a, io);
    const results = await runBench(a.settings, (line) => io.stderr.write(`${line}\n`));
    await mkdir(dirname(a.out), { recursive: true });
    await writeFile(a.out, `${JSON.stringify(results, null, 2)}\n`);
    io.stdout.write(`${formatTables(results)}\nwritten to ${a.out}\n`);
    return 0;
  },
};
