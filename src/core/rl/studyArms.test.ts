// The study's arms: each arm's config against vanilla's budget, and every arm read back from its
// own config (so a stored run's summary.json names its arm), StarPO-S as RAGEN defines it.
import { describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../config.js';
import { applyAlgorithm } from './algorithms.js';
import { armConfig, STUDY_ARMS, studyArmOf } from './studyArms.js';

const vanilla: Config = {
  ...applyAlgorithm(defaultConfig(), 'starpo-ppo'),
  groups: 8,
  groupSize: 4,
  lr: 1e-3,
  stepsPerIteration: 4,
  iterations: 60,
};

describe('study arms', () => {
  it('every arm is read back from its own config', () => {
    for (const arm of STUDY_ARMS) expect(studyArmOf(armConfig(vanilla, arm)), arm).toBe(arm);
  });

  it("every learning arm keeps vanilla's LR warm-up (an algorithm's switches do not reset it); frozen has none", () => {
    const warm = { ...vanilla, lrWarmup: 0.3 };
    for (const arm of STUDY_ARMS) expect(armConfig(warm, arm).lrWarmup, arm).toBe(arm === 'frozen' ? 0 : 0.3);
  });

  it('StarPO-S arms are RAGEN’s StarPO-S: filter, critic, ε 0.2/0.28, no KL, no critic warm-up', () => {
    for (const arm of ['s-paper', 's-steps', 's-samples'] as const) {
      const c = armConfig(vanilla, arm);
      expect(c).toMatchObject({ advantage: 'gae', clipLow: 0.2, clipHigh: 0.28, klCoef: 0, criticWarmup: 0 });
      expect(c.filterRatio).toBe(0.25);
      expect(c.entropyCoef).toBe(0.001);
      // The budget is vanilla's.
      expect([c.lr, c.groups, c.groupSize, c.iterations]).toEqual([1e-3, 8, 4, 60]);
    }
    expect(armConfig(vanilla, 's-steps').stepsPerIteration).toBe(4);
    expect(armConfig(vanilla, 's-samples')).toMatchObject({ filterMode: 'oversample', stepsPerIteration: 4 });
    expect(armConfig(vanilla, 's-paper')).toMatchObject({
      filterMode: 'subsample',
      stepsPerIteration: 0,
      minibatch: 32,
    });
    expect(armConfig(vanilla, 'c-no-filter')).toMatchObject({ filterMode: 'off', klCoef: 0, clipHigh: 0.28 });
  });

  it('the random-keep control keeps as many groups as the paper arm, at its step count, with vanilla’s loss', () => {
    const c = armConfig(vanilla, 'c-random-keep');
    const p = armConfig(vanilla, 's-paper');
    expect([c.filterMode, c.filterRatio, c.stepsPerIteration, c.minibatch]).toEqual([
      p.filterMode,
      p.filterRatio,
      p.stepsPerIteration,
      p.minibatch,
    ]);
    expect(c).toMatchObject({ algorithm: 'starpo-ppo', filterOrder: 'random', klCoef: 0.001, clipHigh: 0.2 });
    expect(armConfig(vanilla, 'frozen').lr).toBe(0);
    expect(studyArmOf({ ...vanilla, algorithm: 'dpo-online' })).toBeNull();
    // StarPO-S's arms keep the highest-std groups by subsampling or oversampling: another filter
    // or keep order is none of them.
    expect(studyArmOf({ ...armConfig(vanilla, 's-paper'), filterMode: 'top-p' })).toBeNull();
    expect(studyArmOf({ ...armConfig(vanilla, 's-steps'), filterMode: 'dynamic' })).toBeNull();
    expect(studyArmOf({ ...armConfig(vanilla, 's-samples'), filterOrder: 'random' })).toBeNull();
    // The frozen control is the frozen arm whatever algorithm it runs.
    expect(studyArmOf({ ...armConfig(vanilla, 'grpo'), lr: 0 })).toBe('frozen');
  });
});
