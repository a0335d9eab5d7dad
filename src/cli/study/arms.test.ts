// The study's plan and analysis on hand-made runs: every arm × seed in its own directory with the
// arm's config; against vanilla, Fisher's p and the seed-paired differences worked out by hand.
import { describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../../core/config.js';
import { applyAlgorithm } from '../../core/rl/algorithms.js';
import { studyArmOf } from '../../core/rl/studyArms.js';
import { type ArmRuns, armsMarkdown, compareToVanilla, planArms } from './arms.js';
import type { RoundRun } from './round.js';

const vanilla: Config = {
  ...applyAlgorithm(defaultConfig(), 'starpo-ppo'),
  env: 'minigrid/DoorKey-5x5',
  groups: 8,
  groupSize: 4,
  stepsPerIteration: 4,
};

/** A judged run: only the fields the analysis reads. */
const run = (seed: number, trapped: boolean, start: number, peak: number, final: number): RoundRun =>
  ({ seed, trapped, start, peak, final, heldOut: [0.5, 0.5], secondsPerIteration: 2 }) as unknown as RoundRun;

const arm = (name: ArmRuns['arm'], runs: RoundRun[], config: Config = vanilla): ArmRuns => ({
  arm: name,
  runs,
  config,
  steps: 4,
  samplesPerStep: 8,
});

describe('study arms: plan and analysis', () => {
  it('plans every arm × seed in its own directory, each config naming its arm', () => {
    const plan = planArms(vanilla, ['vanilla', 's-samples', 'frozen'], [201, 202], 'out');
    // A round directory's layout: the confirmation's cells hold vanilla's and frozen's runs.
    expect(plan.map((r) => r.dir)).toEqual([
      'out/confirm-vanilla/custom/starpo-ppo/seed-201',
      'out/confirm-vanilla/custom/starpo-ppo/seed-202',
      'out/study-s-samples/custom/starpo-s/seed-201',
      'out/study-s-samples/custom/starpo-s/seed-202',
      'out/confirm-frozen/custom/starpo-ppo/seed-201',
      'out/confirm-frozen/custom/starpo-ppo/seed-202',
    ]);
    for (const r of plan) {
      expect(studyArmOf(r.config)).toBe(r.arm);
      expect(r.config.seed).toBe(r.seed);
    }
  });

  it('compares an arm to vanilla by hand: Fisher on counts, signed-rank on seed-paired differences', () => {
    const v = arm('vanilla', [
      run(1, true, 0.2, 0.6, 0.1),
      run(2, true, 0.2, 0.5, 0.2),
      run(3, false, 0.2, 0.5, 0.4),
    ]);
    const s = arm('s-samples', [
      run(1, false, 0.2, 0.6, 0.5),
      run(2, false, 0.2, 0.6, 0.4),
      run(3, false, 0.2, 0.5, 0.5),
    ]);
    const c = compareToVanilla(s, v);
    // 0 of 3 against 2 of 3: P(X ≤ 0) with 2 events in 6, 3 drawn = C(4,3)/C(6,3) = 4/20.
    expect(c.fisherP).toBeCloseTo(0.2, 12);
    // last 10 − start, arm minus vanilla: (0.3 − (−0.1)), (0.2 − 0), (0.3 − 0.2) = 0.4, 0.2, 0.1;
    // all positive: W+ = 6, P(W+ ≥ 6) = 1/8.
    expect(c.finalGain?.mean).toBeCloseTo(0.7 / 3, 12);
    expect(c.finalGain?.pGreater).toBeCloseTo(1 / 8, 12);
    // peak − last 10: (0.1 − 0.5), (0.2 − 0.3), (0 − 0.1) = −0.4, −0.1, −0.1: all negative.
    expect(c.giveBack?.pLess).toBeCloseTo(1 / 8, 12);
    expect(compareToVanilla(v, v).fisherP).toBeNull();
    const md = armsMarkdown([v, s]);
    expect(md).toMatch(/\| s-samples \| 0 of 3 \(0\.00–0\.56\) \| 0\.200 \|/);
    expect(armsMarkdown([s])).toMatch(/No vanilla runs yet/);
  });
});
