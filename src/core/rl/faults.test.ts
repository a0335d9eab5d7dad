// Fault injection into the trainer: a NaN loss, a poisoned weight
// (NaN logits while sampling), an infinite learning rate (NaN weights after a finite-gradient
// step) and a huge finite one (weights that only fail at the next rollout). Each time the
// update is skipped, the weights are the last good ones, an error event says so, and three
// non-finite iterations in a row pause the run with a suggestion.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { createPolicy, disposeModel, type Model } from '../model/params.js';
import { NonFiniteError, sampleBatch } from '../model/sampling.js';
import { Rng } from '../rng.js';
import { faultSuggestion, weightsFinite } from './faults.js';
import { sideConfig, sideModelConfig } from './sideEnv.fixture.js';
import { type SideTrainer, sideTrainer, snapshot, tok } from './tinyRun.fixture.js';
import type { TrainerEvent } from './trainer.js';

/** The fault tests' run: PPO, 2 × 2 rollouts. */
const config = (overrides: Partial<Config> = {}): Config =>
  sideConfig('starpo-ppo', { groupSize: 2, ...overrides });

/** The fault tests' trainer: PPO's policy and critic from the seed, on the side task. */
function setup(c: Config): SideTrainer & { critic: Model } {
  const run = sideTrainer(c, sideModelConfig(tok));
  if (!run.critic) throw new Error('a PPO run has a critic');
  return { ...run, critic: run.critic };
}

const errors = (events: TrainerEvent[]) =>
  events.filter((e): e is Extract<TrainerEvent, { type: 'error' }> => e.type === 'error');

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('faultSuggestion', () => {
  it('suggests a third of the learning rate, rounded, within the field range', () => {
    expect(faultSuggestion({ lr: 0.01, gradClip: 1 })).toBe('lower the learning rate (now 0.01) to 0.003');
    expect(faultSuggestion({ lr: 3e-4, gradClip: 1 })).toBe('lower the learning rate (now 0.0003) to 0.0001');
    expect(faultSuggestion({ lr: 0.01, gradClip: 0 })).toMatch(/to 0\.003; turn on gradient-norm clipping/);
    expect(faultSuggestion({ lr: 2e-7, gradClip: 1 })).toBe('lower the learning rate (now 2e-7) to 1e-7');
    expect(faultSuggestion({ lr: 1e-7, gradClip: 1 })).toMatch(/already at its minimum/);
  });
});

describe('weightsFinite and sampling', () => {
  it('finds one NaN or Inf weight, and sampling refuses NaN logits with a NonFiniteError', async () => {
    const mc = sideModelConfig(tok);
    const policy = createPolicy(mc, new Rng(3));
    expect(await weightsFinite([policy, null])).toBe(true);
    const w = policy.weights['h0.mlp.bfc']!;
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      w.assign(tf.tidy(() => tf.zeros(w.shape).add(tf.oneHot([3], w.shape[0]!).reshape(w.shape).mul(bad))));
      expect(await weightsFinite([policy])).toBe(false);
    }
    const before = tf.memory().numTensors;
    const prompt = tok.encode('the goal is left');
    await expect(
      sampleBatch(policy, tok, [prompt, prompt], { maxNewTokens: 4, temperature: 1, rng: new Rng(1) }),
    ).rejects.toThrow(NonFiniteError);
    await expect(
      sampleBatch(policy, tok, [prompt], { maxNewTokens: 4, temperature: 0, rng: new Rng(1) }),
    ).rejects.toThrow(/logits are not finite/);
    expect(tf.memory().numTensors).toBe(before);
    disposeModel(policy);
  });
});

describe('Trainer faults', () => {
  it('a NaN loss skips the update, keeps the weights, and three in a row pause the run', async () => {
    const s = setup(config());
    // Fault injection: a NaN entropy coefficient makes the policy loss and gradients NaN after
    // the critic has stepped (validation would refuse it; the trainer must cope anyway).
    s.trainer.config = { ...s.trainer.config, entropyCoef: Number.NaN };
    for (let i = 0; i < 2; i++) {
      const p = await snapshot(s.policy);
      const c = await snapshot(s.critic);
      await s.trainer.step();
      expect(await snapshot(s.policy)).toEqual(p);
      expect(await snapshot(s.critic)).toEqual(c);
    }
    const summary = await s.trainer.run();
    expect(s.trainer.iteration).toBe(3);
    // run() returns at the pause (of 10 iterations) with the summary of the three it ran: each
    // faulted iteration still wrote its row, and the summary is made of those rows.
    expect(s.rows.map((r) => r.iteration)).toEqual([0, 1, 2]);
    const success = s.rows.map((r) => r['rollout/pairedSuccessRate'] as number);
    expect(summary.peakIteration).toBe(2);
    expect(summary.finalSuccess).toBeCloseTo((success[0]! + success[1]! + success[2]!) / 3, 12);
    const errs = errors(s.events);
    expect(errs.map((e) => e.consecutive)).toEqual([1, 2, 3]);
    expect(errs.map((e) => e.iteration)).toEqual([0, 1, 2]);
    expect(errs[0]!.message).toMatch(
      /non-finite update skipped .*weights restored to the start of iteration 0/,
    );
    expect(errs[0]!.pause).toBeUndefined();
    expect(errs[2]!.pause).toBe(true);
    expect(errs[2]!.suggestion).toBe('lower the learning rate (now 0.01) to 0.003');
    expect(s.trainer.haltReason).toMatch(/paused after 3 non-finite iterations in a row/);
    await expect(s.trainer.step()).rejects.toThrow(/lower the learning rate/);
    // A live change clears the pause; the streak starts again.
    s.trainer.config = { ...s.trainer.config, entropyCoef: 0.001 };
    s.trainer.setLive({ lr: 0.003 });
    expect(s.trainer.haltReason).toBeNull();
    s.trainer.config = { ...s.trainer.config, entropyCoef: Number.NaN };
    await s.trainer.step();
    expect(errors(s.events).at(-1)!.consecutive).toBe(1);
    s.dispose();
  });

  it('NaN logits while sampling restore the last good weights, and the next iteration is healthy', async () => {
    const s = setup(config());
    const good = await snapshot(s.policy);
    const wte = s.policy.weights.wte!;
    wte.assign(tf.tidy(() => wte.add(tf.scalar(Number.NaN))));
    const row = await s.trainer.step();
    expect(row).toEqual({ iteration: 0 });
    expect(s.rows).toHaveLength(0);
    expect(errors(s.events)[0]!.message).toMatch(/logits are not finite.*restored to the last good ones/);
    expect(await snapshot(s.policy)).toEqual(good);
    const next = await s.trainer.step();
    expect(next.iteration).toBe(1);
    expect(Number.isFinite(next['actor/pgLoss'])).toBe(true);
    expect(s.trainer.iteration).toBe(2);
    s.dispose();
  });

  it('an infinite step size (finite gradients, NaN weights) is caught after the update', async () => {
    const s = setup(config());
    // Fault injection: bypass validation (lr is capped at 0.1) to blow the weights up.
    s.trainer.config = { ...s.trainer.config, lr: 1e39 };
    const p = await snapshot(s.policy);
    const tensors: number[] = [];
    for (let i = 0; i < 3; i++) {
      await s.trainer.step();
      tensors.push(tf.memory().numTensors);
    }
    expect(await snapshot(s.policy)).toEqual(p);
    const errs = errors(s.events);
    expect(errs[0]!.message).toMatch(/weights were not finite after the update/);
    expect(errs.map((e) => e.consecutive)).toEqual([1, 2, 3]);
    expect(errs[2]!.suggestion).toMatch(/^lower the learning rate \(now 1e\+39\)/);
    expect(tensors[2]).toBe(tensors[1]);
    s.dispose();
  });

  it('huge finite weights that fail only at the next rollout still count as a streak', async () => {
    const s = setup(config());
    s.trainer.config = { ...s.trainer.config, lr: 1e30 };
    await s.trainer.run();
    const errs = errors(s.events);
    expect(errs.length).toBe(3);
    expect(errs.every((e) => /logits are not finite/.test(e.message))).toBe(true);
    expect(errs.at(-1)!.pause).toBe(true);
    expect(s.trainer.iteration).toBeLessThan(10);
    expect(await weightsFinite([s.policy, s.critic])).toBe(true);
    s.dispose();
  });
});
