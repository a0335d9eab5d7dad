// What a study's throughput is (issue 47): the echo-trap preset as a user runs it, one run alone
// (serial, then on two workers) and two runs at once in two processes (one core each, as
// `round run --jobs 2` runs them), each a warm-up and 10 timed iterations, in one bench run; the
// runs an hour each way and their ratio. The alone run's phases (rollout, scoring, update) as a
// roofline: their matrix products' GFLOP (flopMeter.ts) over their time, against the 2-D product
// rate measured in the same run. And the kernels a decoding step runs on the preset's model (a
// count, not a time): sampleBatch for n and n + 1 new tokens on 64 prompts, the difference.
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { disposeModel } from '../core/model/params.js';
import { sampleBatch } from '../core/model/sampling.js';
import { Rng } from '../core/rng.js';
import type { BackendName } from '../workers/backend.js';
import { runJsonChild } from './nodeGpu.js';
import { PRESET_TARGET_ITERATIONS, type PresetBench, presetSetup } from './presetBench.js';
import { measureMatmul } from './roofline.js';

const CHILD = fileURLToPath(new URL('./presetChild.ts', import.meta.url));

/** One presetChild.ts run; resolves to its figures. */
function childRun(
  preset: string,
  backend: BackendName,
  iterations: number,
  flags: readonly ('two' | 'meter')[] = [],
): Promise<PresetBench> {
  const args = [preset, backend, String(iterations), ...flags];
  return runJsonChild(CHILD, args, { who: `presetChild ${preset}` }) as Promise<PresetBench>;
}

export interface ThroughputSection {
  preset: string;
  backend: BackendName;
  iterations: number;
  alone: PresetBench;
  /** The same run on two workers (the second takes half of each turn's sampling, half the reference's scoring, the measurements). */
  twoWorkers: PresetBench;
  pair: [PresetBench, PresetBench];
  /** Runs of PRESET_TARGET_ITERATIONS an hour: one run alone, two at once. */
  runsPerHourAlone: number;
  runsPerHourPair: number;
  /** runsPerHourPair ÷ runsPerHourAlone. */
  pairGain: number;
  /** Kernel calls of one decoding step on the preset's model (64 rows), and those that compute (no reshapes, no scopes). */
  decodeStepKernels: number;
  decodeStepComputeKernels: number;
  /** The 2-D product rate measured in this run (roofline.ts measureMatmul): the roof. */
  roofGflops: number;
  /** The alone run's phases against the roof. */
  phases: {
    phase: 'rollout' | 'scoring' | 'update';
    ms: number;
    gflop: number;
    gflops: number;
    shareOfRoof: number;
  }[];
}

/** Kernel calls one decoding token step adds on the preset's model, 64 prompts of 4 kinds. */
export async function decodeStepKernels(preset: string, backend: BackendName): Promise<[number, number]> {
  const { loaded } = await presetSetup(preset, backend, 2);
  const tok = loaded.base.tokenizer;
  const kinds = ['You see a yellow key 1 step right', 'get to the green goal', 'turn left', 'go forward'];
  const prompts = Array.from({ length: 64 }, (_, i) => tok.encode(kinds[i % 4] as string));
  const count = async (n: number) =>
    (
      await tf.profile(async () => {
        await sampleBatch(loaded.base.policy, tok, prompts, {
          maxNewTokens: n,
          temperature: 1,
          rng: new Rng(1),
          stopIds: [],
        });
      })
    ).kernels.map((k) => k.name);
  try {
    const [a, b] = [await count(4), await count(5)];
    // Reshapes move no data, and tfjs lists a custom gradient's scope as an entry of its own.
    const free = (l: string[]) => l.filter((n) => n === 'Reshape' || n === 'unnamed scope').length;
    return [b.length - a.length, b.length - a.length - (free(b) - free(a))];
  } finally {
    disposeModel(loaded.base.policy);
  }
}

/** The throughput section: alone, then two at once, then the kernel count. */
export async function benchThroughput(
  preset: string,
  backend: BackendName,
  iterations: number,
  log: (line: string) => void,
): Promise<ThroughputSection> {
  log(`bench: ${preset} preset alone, ${iterations} iterations on ${backend}`);
  const roof = await measureMatmul();
  const alone = await childRun(preset, backend, iterations, ['meter']);
  log(`bench: ${preset} preset alone on two workers, ${iterations} iterations`);
  const twoWorkers = await childRun(preset, backend, iterations, ['two']);
  log(`bench: two ${preset} runs at once, ${iterations} iterations each`);
  const pair = (await Promise.all([
    childRun(preset, backend, iterations),
    childRun(preset, backend, iterations),
  ])) as [PresetBench, PresetBench];
  const perHour = (s: number) => 3600 / (s * PRESET_TARGET_ITERATIONS);
  const runsPerHourAlone = perHour(alone.secondsPerIteration);
  const runsPerHourPair = pair.reduce((sum, r) => sum + perHour(r.secondsPerIteration), 0);
  const [kernels, compute] = await decodeStepKernels(preset, backend);
  const round2 = (x: number) => Math.round(100 * x) / 100;
  return {
    preset,
    backend,
    iterations,
    alone,
    twoWorkers,
    pair,
    runsPerHourAlone: round2(runsPerHourAlone),
    runsPerHourPair: round2(runsPerHourPair),
    pairGain: round2(runsPerHourPair / runsPerHourAlone),
    decodeStepKernels: kernels,
    decodeStepComputeKernels: compute,
    roofGflops: round2(roof.gflops),
    phases: phasesOf(alone, roof.gflops),
  };
}

/** Each phase of a metered run: its time, its products' GFLOP, their rate and its share of the roof. */
function phasesOf(r: PresetBench, roof: number): ThroughputSection['phases'] {
  const s = r.split;
  const phase = (name: 'rollout' | 'scoring' | 'update', ms: number, gflop: number | undefined) => {
    const rate = ms > 0 ? (gflop ?? 0) / (ms / 1000) : 0;
    const r3 = (x: number) => Math.round(1000 * x) / 1000;
    return {
      phase: name,
      ms: Math.round(ms),
      gflop: r3(gflop ?? 0),
      gflops: r3(rate),
      shareOfRoof: roof > 0 ? r3(rate / roof) : 0,
    };
  };
  return [
    phase('rollout', s.rolloutMs, s.rolloutGflop),
    phase('scoring', s.scoringMs, s.scoringGflop),
    phase('update', s.updateMs, s.updateGflop),
  ];
}

/** The section as lines for the terminal. */
export function formatThroughput(t: ThroughputSection): string {
  const s = (r: PresetBench) => `${r.secondsPerIteration.toFixed(2)} s`;
  return [
    `${t.preset} on ${t.backend}: alone ${s(t.alone)} an iteration (rollout ${(t.alone.split.rolloutMs / 1000).toFixed(2)} s, scoring ${(t.alone.split.scoringMs / 1000).toFixed(2)} s, update ${(t.alone.split.updateMs / 1000).toFixed(2)} s), ${t.runsPerHourAlone} runs of ${PRESET_TARGET_ITERATIONS} an hour`,
    `alone on two workers: ${s(t.twoWorkers)} an iteration (rollout ${(t.twoWorkers.split.rolloutMs / 1000).toFixed(2)} s, ${(t.alone.secondsPerIteration / t.twoWorkers.secondsPerIteration).toFixed(2)}× serial)`,
    `two at once: ${s(t.pair[0])} and ${s(t.pair[1])} an iteration, ${t.runsPerHourPair} runs an hour (${t.pairGain}× one alone)`,
    `a decoding step: ${t.decodeStepKernels} kernel entries, ${t.decodeStepComputeKernels} that compute`,
    `roofline (2-D product rate ${t.roofGflops} GFLOP/s): ${t.phases.map((p) => `${p.phase} ${p.gflop} GFLOP in ${p.ms} ms = ${p.gflops} GFLOP/s (${Math.round(100 * p.shareOfRoof)}%)`).join('; ')}`,
  ].join('\n');
}
