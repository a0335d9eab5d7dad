// The frozen control: with lr 0 the policy stays exactly at its base — every weight
// bit-identical after training iterations, for each algorithm — and the trainer skips the update
// (the critic stays too); each case is checked to move at lr 0.01. Adam with step size 0 changes
// nothing even with large gradients and warm moments.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Config, defaultConfig, validateConfig } from '../config.js';
import type { MetricRow } from '../metrics/keys.js';
import { Adam } from '../model/adam.js';
import { FROZEN_CONTROL, isFrozenControl } from './frozenControl.js';
import { sideConfig, sideModelConfig } from './sideEnv.fixture.js';
import { sideTrainer, snapshot, tok } from './tinyRun.fixture.js';

/** 3 iterations of `algo` at `lr`, 2 steps each, the critic training from the first. */
const config = (algo: Config['algorithm'], lr: number): Config =>
  sideConfig(algo, { stepsPerIteration: 2, iterations: 3, criticWarmup: 0, lr, criticLr: 0.01 });

interface Moved {
  policy: boolean;
  critic: boolean;
  rows: MetricRow[];
}

/** Trains 3 iterations of `algo` at `lr`; whether any policy or critic weight changed at all. */
async function train(algo: Config['algorithm'], lr: number): Promise<Moved> {
  const { trainer, policy, critic, rows, dispose } = sideTrainer(config(algo, lr), sideModelConfig(tok));
  if (!critic) throw new Error('made with a critic');
  // The echo-trap detector's noise bound is sized to this run's P × N = 2 × 4 rollouts.
  expect(trainer.detector.options.rollouts).toBe(8);
  const policyBefore = await snapshot(policy);
  const criticBefore = await snapshot(critic);
  await trainer.run();
  const changed = (after: Float32Array[], before: Float32Array[]) =>
    after.some((w, i) => w.some((x, j) => !Object.is(x, before[i]![j])));
  const moved = {
    policy: changed(await snapshot(policy), policyBefore),
    critic: changed(await snapshot(critic), criticBefore),
    rows,
  };
  dispose();
  return moved;
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('frozen control (lr 0)', () => {
  it('is a valid learning rate', () => {
    expect(validateConfig({ ...defaultConfig(), lr: 0 }).ok).toBe(true);
    expect(validateConfig({ ...defaultConfig(), lr: -1e-4 }).ok).toBe(false);
  });

  it('is what FROZEN_CONTROL makes and isFrozenControl names: lr exactly 0', () => {
    expect(isFrozenControl({ ...defaultConfig(), ...FROZEN_CONTROL })).toBe(true);
    expect(isFrozenControl(defaultConfig())).toBe(false);
    expect(isFrozenControl({ lr: Number.MIN_VALUE })).toBe(false);
  });

  it('Adam with step size 0 leaves a variable bit-identical, whatever the gradient', async () => {
    const v = tf.variable(tf.tensor1d([0.5, -1.25, 3e-8, -0, 7]));
    const before = (await v.data()).slice();
    const opt = new Adam({ epsilon: 1e-8 });
    const f = () =>
      v
        .mul(tf.tensor1d([1e3, -2, 5, 1, 0.1]))
        .square()
        .sum() as tf.Scalar;
    for (let i = 0; i < 3; i++) opt.minimize(f, [v], 0).dispose();
    const after = await v.data();
    expect(Array.from(after)).toEqual(Array.from(before));
    expect(Object.is(after[3], -0)).toBe(true);
    opt.dispose();
    v.dispose();
  });

  // (dpo-online is left out: an untrained policy on SideEnv gives no pair with a reward gap, so
  // it makes no update at any step size and the comparison would be empty.)
  for (const algo of ['starpo-ppo', 'starpo-grpo', 'starpo-s'] as const) {
    it(`${algo}: at lr 0 every policy weight stays bit-identical over 3 iterations (at 0.01 they move)`, async () => {
      // The same run at lr 0.01 first, so the frozen case is not frozen merely for lack of updates.
      expect((await train(algo, 0.01)).policy).toBe(true);
      const frozen = await train(algo, 0);
      expect(frozen.rows).toHaveLength(3);
      expect(frozen.policy).toBe(false);
      // Nothing moved, so the reference and the old policy agree with the new one exactly.
      for (const r of frozen.rows) {
        if (r['actor/klRef'] !== undefined) expect(r['actor/klRef']).toBe(0);
        if (r['actor/approxKl'] !== undefined) expect(r['actor/approxKl']).toBe(0);
      }
      // The update is skipped altogether: the critic does not move either (it cannot change what a
      // frozen policy does), and every iteration still writes its row.
      expect(frozen.critic).toBe(false);
      for (const r of frozen.rows) expect(r['actor/optimizerSteps']).toBe(0);
    });
  }
});
