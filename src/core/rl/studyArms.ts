// The arms of the echo-trap study (docs/echo-trap.md, section 4): does StarPO-S prevent the
// trap, compared fairly?
// Each arm is a setting of existing switches on top of the confirmed preset's budget (vanilla
// StarPO's batch, learning rate and optimizer steps), so every arm answers one question and every
// config names at most one arm (`studyArmOf`, read off this table). StarPO-S is RAGEN's: the top-25% std filter, a
// critic with GAE, ε 0.2/0.28, no KL, entropy 0.001 and no critic warm-up (`critic_warmup: 0`).
import type { Config } from '../config.js';
import { applyAlgorithm } from './algorithms.js';
import { FROZEN_CONTROL, isFrozenControl } from './frozenControl.js';

export const STUDY_ARMS = [
  'vanilla',
  'grpo',
  'frozen',
  's-paper',
  'c-random-keep',
  's-steps',
  's-samples',
  'c-no-filter',
] as const;
export type StudyArm = (typeof STUDY_ARMS)[number];

export interface StudyArmSpec {
  name: StudyArm;
  /** The question the arm answers, in one line (the study's tables and the app use it). */
  answers: string;
  algorithm: Config['algorithm'];
  /** The arm's switches against vanilla's budget (`stepsPerIteration` of the confirmed preset). */
  overrides(vanilla: Pick<Config, 'stepsPerIteration'>): Partial<Config>;
}

/** RAGEN's minibatch: the kept batch in minibatches of 32 trajectories, one epoch. */
const PAPER_STEPS: Partial<Config> = { stepsPerIteration: 0, epochs: 1, minibatch: 32 };

export const STUDY_ARM_SPECS: Readonly<Record<StudyArm, StudyArmSpec>> = {
  vanilla: {
    name: 'vanilla',
    answers: 'starpo-ppo at the confirmed budget: the baseline trap rate',
    algorithm: 'starpo-ppo',
    overrides: () => ({}),
  },
  grpo: {
    name: 'grpo',
    answers: 'starpo-grpo at the same budget (RAGEN: GRPO collapses earliest)',
    algorithm: 'starpo-grpo',
    overrides: () => ({}),
  },
  frozen: {
    name: 'frozen',
    answers: 'lr 0, the null: how often noise alone reads as a trap',
    algorithm: 'starpo-ppo',
    // lr 0 leaves nothing for a warm-up to ramp: none, as the frozen runs were made.
    overrides: () => ({ ...FROZEN_CONTROL, lrWarmup: 0 }),
  },
  's-paper': {
    name: 's-paper',
    answers:
      'StarPO-S as RAGEN ran it: top-25% std filter, one epoch of minibatches of 32 over the kept batch',
    algorithm: 'starpo-s',
    overrides: () => ({ filterMode: 'subsample', filterOrder: 'highest-std', ...PAPER_STEPS }),
  },
  'c-random-keep': {
    name: 'c-random-keep',
    answers:
      'vanilla keeping a random 25% of groups at the paper arm’s step count: is s-paper’s effect the std selection, or fewer and smaller updates?',
    algorithm: 'starpo-ppo',
    overrides: () => ({ filterMode: 'subsample', filterOrder: 'random', filterRatio: 0.25, ...PAPER_STEPS }),
  },
  's-steps': {
    name: 's-steps',
    answers: 'StarPO-S with vanilla’s optimizer steps (each on fewer samples)',
    algorithm: 'starpo-s',
    overrides: (v) => ({
      filterMode: 'subsample',
      filterOrder: 'highest-std',
      stepsPerIteration: v.stepsPerIteration,
    }),
  },
  's-samples': {
    name: 's-samples',
    answers:
      'StarPO-S by oversampling (roll out P/ratio groups, keep P): the same steps and samples per step',
    algorithm: 'starpo-s',
    overrides: (v) => ({
      filterMode: 'oversample',
      filterOrder: 'highest-std',
      stepsPerIteration: v.stepsPerIteration,
    }),
  },
  'c-no-filter': {
    name: 'c-no-filter',
    answers: 'StarPO-S without its filter (critic, clip-higher, no KL): what the filter adds',
    algorithm: 'starpo-s',
    overrides: (v) => ({
      filterMode: 'off',
      filterOrder: 'highest-std',
      stepsPerIteration: v.stepsPerIteration,
    }),
  },
};

/**
 * The config of `arm` on vanilla's budget: the arm's algorithm switches applied to `vanilla`, then
 * its overrides. Everything else (batch, lr and its warm-up, temperature, iterations, seed) stays
 * vanilla's.
 */
export function armConfig(vanilla: Config, arm: StudyArm): Config {
  const spec = STUDY_ARM_SPECS[arm];
  return {
    ...applyAlgorithm(vanilla, spec.algorithm),
    lrWarmup: vanilla.lrWarmup,
    ...spec.overrides(vanilla),
  };
}

/** The switches that tell the learning arms apart. */
const ARM_SWITCHES = [
  'algorithm',
  'filterMode',
  'filterOrder',
  'stepsPerIteration',
] as const satisfies readonly (keyof Config)[];

/**
 * The arm a config runs, read off the table (null when it matches none): how a stored run's
 * summary.json names its arm. The frozen control is the frozen arm whatever its algorithm (a
 * round's frozen null may run GRPO's); any other config is the first learning arm whose config on
 * its own budget agrees with it on ARM_SWITCHES — s-paper before s-steps, which on a budget of
 * stepsPerIteration 0 is the same setting.
 */
export function studyArmOf(c: Config): StudyArm | null {
  if (isFrozenControl(c)) return 'frozen';
  const agrees = (arm: StudyArm) => {
    const a = armConfig(c, arm);
    return !isFrozenControl(a) && ARM_SWITCHES.every((k) => a[k] === c[k]);
  };
  return STUDY_ARMS.find(agrees) ?? null;
}
