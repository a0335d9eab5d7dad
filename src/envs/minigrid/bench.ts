// Environment throughput: env steps per second in one thread, each step producing the full
// text observation, under a seeded random policy over the family's valid actions (resetting
// with the next seed when an episode ends); plus the scripted expert's success rate per id.
// Plain TypeScript (no Node globals), so it runs in Node and in a worker.
import { Rng } from '../../core/rng.js';
import type { EnvSpec } from '../types.js';
import { minigridEnvs } from './index.js';
import type { MiniGridTextEnv } from './textenv.js';

/** Options of `benchMinigrid`. */
export interface BenchOptions {
  /** Ids to measure (default: every registered MiniGrid id). */
  ids?: string[];
  /** Env steps timed per id (default 100,000). */
  steps?: number;
  /** Expert episodes per id (default 100; 0 skips the expert). */
  expertEpisodes?: number;
  /** Seed of the random policy and the first episode. */
  seed?: number;
  /** Clock in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** One id's measurements. */
export interface BenchRow {
  id: string;
  family: string;
  steps: number;
  episodes: number;
  seconds: number;
  stepsPerSec: number;
  /** Mean characters per observation. */
  meanObsChars: number;
  expertEpisodes: number;
  expertSuccessRate: number | null;
  expertMeanSteps: number | null;
}

function defaultClock(): () => number {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  if (perf) return () => perf.now();
  return () => Date.now();
}

function measureSteps(spec: EnvSpec, steps: number, seed: number, now: () => number) {
  const env = spec.make();
  const rng = new Rng(seed);
  const actions = env.validActions() ?? [];
  // Pre-draw the policy's actions so the timing covers the env only.
  const plan: string[] = [];
  for (let i = 0; i < steps; i++) plan.push(actions[rng.int(0, actions.length)] as string);
  let episode = seed;
  let chars = env.reset(episode).length;
  let episodes = 1;
  const t0 = now();
  for (let i = 0; i < steps; i++) {
    const r = env.step(plan[i] as string);
    chars += r.observation.length;
    if (r.done) {
      episode++;
      episodes++;
      chars += env.reset(episode).length;
    }
  }
  const seconds = (now() - t0) / 1000;
  return { seconds, episodes, meanObsChars: chars / (steps + episodes) };
}

function measureExpert(spec: EnvSpec, episodes: number, seed: number) {
  const env = spec.make() as MiniGridTextEnv;
  let successes = 0;
  let total = 0;
  for (let e = 0; e < episodes; e++) {
    env.reset(seed + e);
    for (;;) {
      const r = env.step(env.expert().action);
      total++;
      if (r.done) {
        if (r.info.success) successes++;
        break;
      }
    }
  }
  return { rate: successes / episodes, meanSteps: total / episodes };
}

/** Measures every requested id; returns JSON-able results. */
export function benchMinigrid(opts: BenchOptions = {}): { kind: string; steps: number; rows: BenchRow[] } {
  const steps = opts.steps ?? 100_000;
  const expertEpisodes = opts.expertEpisodes ?? 100;
  const seed = opts.seed ?? 0;
  const now = opts.now ?? defaultClock();
  const wanted = opts.ids ? new Set(opts.ids) : null;
  const specs = minigridEnvs.filter((s) => !wanted || wanted.has(s.id));
  if (wanted && specs.length !== wanted.size) {
    const known = new Set(minigridEnvs.map((s) => s.id));
    const unknown = [...wanted].filter((id) => !known.has(id));
    throw new Error(`benchMinigrid: unknown ids ${unknown.join(', ')}`);
  }
  const rows = specs.map((spec): BenchRow => {
    const m = measureSteps(spec, steps, seed, now);
    const ex = expertEpisodes > 0 ? measureExpert(spec, expertEpisodes, seed) : null;
    return {
      id: spec.id,
      family: spec.family,
      steps,
      episodes: m.episodes,
      seconds: m.seconds,
      stepsPerSec: Math.round(steps / m.seconds),
      meanObsChars: Math.round(m.meanObsChars * 10) / 10,
      expertEpisodes,
      expertSuccessRate: ex ? ex.rate : null,
      expertMeanSteps: ex ? Math.round(ex.meanSteps * 10) / 10 : null,
    };
  });
  return { kind: 'minigrid-env-throughput', steps, rows };
}
