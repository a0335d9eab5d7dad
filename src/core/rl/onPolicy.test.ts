// On-policy at any temperature (issue 18 item 1): rollouts sample at T, and everything the
// update takes from the policy is scored at the same T (verl divides the logits by the rollout
// temperature in compute_log_prob and update_policy). Before the first update the ratio is 1
// and the approx KL 0, and the sampler's recorded log-probs are the scorer's old log-probs.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import { Adam } from '../model/adam.js';
import { createCritic, createPolicy, disposeModel, type Model } from '../model/params.js';
import { policyLogProbs } from '../model/scoring.js';
import { forward, lmLogits } from '../model/transformer.js';
import { Rng } from '../rng.js';
import { applyAlgorithm } from './algorithms.js';
import { trajectorySamples } from './batch.js';
import { InProcessEnvPool } from './envPool.js';
import { packMinibatch } from './optimize.js';
import { computeAdvantages, scoreSamples } from './prepare.js';
import { rollout, type Trajectory } from './rollout.js';
import { SideEnv, sideEnvTokenizer, sideRolloutSettings } from './sideEnv.fixture.js';
import { policyStep } from './update.js';

const tok = sideEnvTokenizer();
const T = 0.7;
const mc = { vocabSize: tok.size, dModel: 16, nLayers: 1, nHeads: 2, context: 128, mlpRatio: 2 };
let policy: Model;
let reference: Model;
let critic: Model;
let trajs: Trajectory[];

beforeAll(async () => {
  await tf.setBackend('cpu');
  policy = createPolicy(mc, new Rng(3));
  reference = createPolicy(mc, new Rng(3));
  critic = createCritic(mc, new Rng(4));
  const starts = [0, 0, 0, 1, 1, 1].map((seed, i) => ({ group: Math.floor(i / 3), seed }));
  const settings = sideRolloutSettings(T);

  const pool = new InProcessEnvPool(() => new SideEnv());
  trajs = (await rollout(policy, tok, pool, starts, settings, new Rng(9))).trajectories;
});
afterAll(() => {
  for (const m of [policy, reference, critic]) disposeModel(m);
});

describe(`the update at T = ${T}`, () => {
  const opts = { contextLength: 128, lossOnEnvTokens: false, rewardPlacement: 'last-token' as const };

  it('scores old log-probs equal to those the sampler recorded (to 1e-5)', async () => {
    const samples = trajectorySamples(tok, trajs, opts);
    const scores = await scoreSamples(samples, policy, reference, critic, T);
    let compared = 0;
    samples.forEach((s, i) => {
      const recorded = trajs[s.traj]!.turns.flatMap((t) => t.logps);
      const scored: number[] = [];
      s.agentMask.forEach((m, t) => {
        if (m === 1) scored.push(scores.oldLogp[i]![t] as number);
      });
      expect(scored).toHaveLength(recorded.length);
      scored.forEach((x, k) => {
        expect(Math.abs(x - recorded[k]!)).toBeLessThan(1e-5);
      });
      compared += scored.length;
    });
    expect(compared).toBeGreaterThan(20);
  });

  it('records log-probs of the tempered distribution: log softmax(logits / T), by hand', async () => {
    const samples = trajectorySamples(tok, trajs, opts);
    const s = samples[0]!;
    const hand = tf.tidy(() => {
      const tokens = tf.tensor2d([s.ids], [1, s.ids.length], 'int32');
      const { hidden } = forward(policy, { tokens, embed: 'train', noCache: true });
      return tf.logSoftmax(lmLogits(policy, hidden).div(T)); // [1, n, V]
    });
    const table = (await hand.data()) as Float32Array;
    hand.dispose();
    const recorded = trajs[s.traj]!.turns.flatMap((t) => t.logps);
    let k = 0;
    s.agentMask.forEach((m, t) => {
      if (m !== 1) return;
      // Target t is token t+1, predicted from position t.
      const expected = table[t * tok.size + s.ids[t + 1]!]!;
      expect(Math.abs(recorded[k++]! - expected)).toBeLessThan(1e-5);
    });
    expect(k).toBe(recorded.length);
  });

  it('has ratio 1, approx KL 0 and no clipping before the first update (to 1e-6)', async () => {
    const config = { ...applyAlgorithm(defaultConfig(), 'starpo-ppo'), temperature: T };
    const samples = trajectorySamples(tok, trajs, opts);
    const scores = await scoreSamples(samples, policy, reference, critic, T);
    const { prepared, stats } = computeAdvantages(samples, scores, trajs, config);
    // The reference is the base model itself: KL to it is 0 at the start, at T as well.
    expect(Math.abs(stats.klRef)).toBeLessThan(1e-6);
    const mb = packMinibatch(prepared, 128);
    const logp = tf.tidy(() => policyLogProbs(policy, tf.tensor2d(mb.tokens, [mb.b, mb.T], 'int32'), T).logp);
    const newLogp = (await logp.data()) as Float32Array;
    logp.dispose();
    let worst = 0;
    for (let i = 0; i < newLogp.length; i++)
      if (mb.mask[i] === 1) worst = Math.max(worst, Math.abs(Math.exp(newLogp[i]! - mb.oldLogp[i]!) - 1));
    expect(worst).toBeLessThan(1e-6);
    const opt = new Adam({ epsilon: 1e-8 });
    const step = await policyStep(policy, opt, mb, {
      lr: 0,
      clipLow: 0.2,
      clipHigh: 0.2,
      entropyCoef: 0,
      klLossCoef: 0,
      klEstimator: 'k1',
      gradClip: 1,
      temperature: T,
    });
    opt.dispose();
    expect(step.ok).toBe(true);
    expect(Math.abs(step.metrics['actor/approxKl'] as number)).toBeLessThan(1e-6);
    expect(step.metrics['actor/clipFrac']).toBe(0);
  });
});
