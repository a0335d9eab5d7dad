// What `npm run bench` measures and how much of it (harness.ts runs it): the full run, and the
// quick one small enough for CI (well under a minute on two cores) with the same schema.
import type { ModelSize } from '../core/model/config.js';
import type { BackendName } from '../workers/backend.js';
import type { StepShape } from '../workers/stepTiming.js';
import type { WebshopBenchSettings } from './webshopBench.js';

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
