// One-click experiments (TensorFlow Playground's dataset buttons). The overrides are provisional:
// a later study finalises them in core/presets.ts. The echo-trap settings follow the prototype
// (reference/echo-trap-feasibility.md: a large step — lr 1e-2 with several updates per
// iteration — is what makes a tiny policy collapse); the StarPO-S preset filters by
// oversampling with a warmed-up critic at a moderate step, the variant that held best there.
import type { Config } from '../core/config.js';

export interface Preset {
  id: string;
  title: string;
  /** One line under the button. */
  description: string;
  overrides: Partial<Config>;
}

export const PRESETS: readonly Preset[] = [
  {
    id: 'echo-trap',
    title: 'Watch the echo trap',
    description:
      'StarPO-GRPO with a large step (lr 1e-2, 4 updates per iteration): success peaks, then collapses.',
    overrides: {
      env: 'minigrid/DoorKey-5x5',
      algorithm: 'starpo-grpo',
      lr: 0.01,
      stepsPerIteration: 4,
      groups: 8,
      groupSize: 16,
      iterations: 200,
      evalEvery: 10,
      miEvery: 10,
    },
  },
  {
    id: 'starpo-s-stable',
    title: 'StarPO-S keeps it stable',
    description:
      'StarPO-S: oversample and keep the high-variance groups, warmed-up critic, clip-higher, no KL.',
    overrides: {
      env: 'minigrid/DoorKey-5x5',
      algorithm: 'starpo-s',
      filterMode: 'oversample',
      criticWarmup: 5,
      lr: 0.003,
      stepsPerIteration: 4,
      groups: 8,
      groupSize: 16,
      iterations: 200,
      evalEvery: 10,
      miEvery: 10,
    },
  },
  {
    id: 'tiny',
    title: 'Tiny smoke run',
    description: 'A seconds-long run on an empty room (2 × 2 rollouts, short turns) to see every part move.',
    overrides: {
      env: 'minigrid/Empty-5x5',
      algorithm: 'starpo-grpo',
      groups: 2,
      groupSize: 2,
      maxTurns: 2,
      maxTokensPerTurn: 8,
      contextLength: 64,
      minibatch: 4,
      iterations: 500,
      evalEvery: 0,
      miEvery: 0,
      checkpointEvery: 0,
    },
  },
];
