// The update plan: minibatches count trajectories, and a trajectory's samples (its history
// windows) stay together, so the number of optimizer steps does not depend on episode length.
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../config.js';
import { Adam } from '../model/adam.js';
import { createCritic, createPolicy, disposeModel } from '../model/params.js';
import { Rng } from '../rng.js';
import { ESTIMATORS } from '../variants/estimators.js';
import { LocalCritic } from './criticHost.js';
import { OBJECTIVES, objectiveOf } from './objectives.js';
import { planMinibatches, planTrajectoryMinibatches, ppoUpdate } from './optimize.js';
import { randomBatch } from './preparedSample.fixture.js';
import { policyStepSettings } from './update.js';

/** Samples of 4 trajectories with 3, 2, 1 and 2 windows: sample i belongs to traj[i]. */
const samples = [0, 0, 0, 1, 1, 2, 3, 3].map((traj) => ({ traj }));

describe('planTrajectoryMinibatches', () => {
  it('makes steps × ⌈trajectories / steps⌉ trajectories, windows together', () => {
    const plan = planTrajectoryMinibatches(
      samples,
      { epochs: 1, minibatch: 32, stepsPerIteration: 2 },
      new Rng(1),
    );
    expect(plan).toHaveLength(2);
    const trajOf = (mb: number[]) => [...new Set(mb.map((i) => samples[i]!.traj))].sort();
    // Two trajectories a step; every sample of a trajectory in the same step.
    for (const mb of plan) expect(trajOf(mb)).toHaveLength(2);
    expect([...plan.flat()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const mb of plan)
      for (const t of trajOf(mb))
        expect(mb.filter((i) => samples[i]!.traj === t)).toHaveLength(
          samples.filter((s) => s.traj === t).length,
        );
  });

  it('counts the minibatch in trajectories: 4 trajectories in minibatches of 2 are 2 steps an epoch', () => {
    const plan = planTrajectoryMinibatches(
      samples,
      { epochs: 2, minibatch: 2, stepsPerIteration: 0 },
      new Rng(1),
    );
    expect(plan).toHaveLength(4);
    // Counting windows instead (8 samples in minibatches of 2) would make 4 steps an epoch.
    expect(planMinibatches(8, { epochs: 2, minibatch: 2, stepsPerIteration: 0 }, new Rng(1))).toHaveLength(8);
  });
});

describe('what an update reads of the config', () => {
  it('runs DPO for the estimator without advantages, the clipped surrogate for every other', () => {
    expect(objectiveOf({ advantage: 'none' })).toBe(OBJECTIVES.dpo);
    for (const e of Object.values(ESTIMATORS))
      if (e.name !== 'none') expect(objectiveOf({ advantage: e.name })).toBe(OBJECTIVES['clipped-surrogate']);
    expect(() => objectiveOf({ advantage: 'x' as never })).toThrow('unknown advantage estimator "x"');
  });

  it('gives the policy step its config fields as they are, and KL’s coefficient only in the loss', () => {
    const c = {
      ...defaultConfig(),
      clipLow: 0.1,
      clipHigh: 0.3,
      entropyCoef: 0.02,
      klEstimator: 'k3' as const,
      gradClip: 0.5,
      temperature: 0.7,
      lossAgg: 'seq-mean-token-sum' as const,
      ratioLevel: 'sequence' as const,
      klCoef: 0.04,
      policyLoss: 'kl-cov' as const,
      clipCovRatio: 0.01,
      clipCovLow: 0.5,
      clipCovHigh: 4,
      klCovRatio: 0.02,
      klCovCoef: 0.7,
    };
    const fields = {
      clipLow: 0.1,
      clipHigh: 0.3,
      entropyCoef: 0.02,
      klEstimator: 'k3',
      gradClip: 0.5,
      temperature: 0.7,
      lossAgg: 'seq-mean-token-sum',
      ratioLevel: 'sequence',
      policyLoss: 'kl-cov',
      clipCovRatio: 0.01,
      clipCovLow: 0.5,
      clipCovHigh: 4,
      klCovRatio: 0.02,
      klCovCoef: 0.7,
    };
    expect(policyStepSettings({ ...c, klMode: 'loss' })).toEqual({ ...fields, klLossCoef: 0.04, lr: c.lr });
    expect(policyStepSettings({ ...c, klMode: 'reward' })).toEqual({ ...fields, klLossCoef: 0, lr: c.lr });
    // The step size is the caller's when it gives one (the trainer's warm-up), else the config's.
    expect(policyStepSettings(c, 2e-5).lr).toBe(2e-5);
  });
});

describe('ppoUpdate: the policy’s steps, then the critic’s on the minibatches the policy reached', () => {
  const mc = { vocabSize: 24, dModel: 16, nLayers: 1, nHeads: 2, context: 16, mlpRatio: 2 };
  /** The shared batch with returns and old log-probs −3: 4 minibatches of 2. */
  const batch = () =>
    randomBatch((s, rng) => {
      s.returns = s.lossMask.map((m) => m * rng.float());
      s.oldLogp = s.lossMask.map((m) => -3 * m);
    });
  async function update(config: Partial<Config>, trainPolicy: boolean) {
    await tf.setBackend('cpu');
    const policy = createPolicy(mc, new Rng(1));
    const critic = createCritic(mc, new Rng(2));
    const policyOpt = new Adam({ epsilon: 1e-8 });
    const host = new LocalCritic(critic, { epsilon: 1e-8 });
    const c = { ...defaultConfig(), epochs: 1, minibatch: 2, stepsPerIteration: 0, ...config };
    const r = await ppoUpdate(batch(), { policy, policyOpt, critic: host }, c, trainPolicy, new Rng(4));
    policyOpt.dispose();
    host.dispose();
    disposeModel(policy);
    disposeModel(critic);
    return r;
  }

  it('steps both on every minibatch; only the critic during its warm-up', async () => {
    expect(await update({}, true)).toMatchObject({ policySteps: 4, criticSteps: 4, samplesPerStep: 2 });
    expect(await update({}, false)).toMatchObject({ policySteps: 0, criticSteps: 4, samplesPerStep: 2 });
  });

  it('after a KL early stop at the first step, the critic steps on that minibatch alone', async () => {
    // The old log-probs (−3) are far from the policy's, so the first step's approx KL is large.
    const r = await update({ klEarlyStop: 1e-6 }, true);
    expect(r).toMatchObject({ klStopped: true, policySteps: 1, criticSteps: 1, samplesPerStep: 2 });
  });
});
