// RAGEN-2's gradient split and the entropy-mechanism losses inside an update: the split measures
// without touching the update, each part scales with its own coefficient, micro-batches sum the
// gradient before its norm, and Clip-Cov / KL-Cov updates are seeded and select tokens.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../config.js';
import { Adam } from '../model/adam.js';
import { createPolicy, disposeModel, weightValues } from '../model/params.js';
import { Rng } from '../rng.js';
import { gradientSplit } from './gradSplit.js';
import { packMinibatch, ppoUpdate } from './optimize.js';
import { randomBatch } from './preparedSample.fixture.js';
import { policyStep, policyStepSettings } from './update.js';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const mc = { vocabSize: 24, dModel: 16, nLayers: 1, nHeads: 2, context: 16, mlpRatio: 2 };

/** The shared batch with old and reference log-probs near −3. */
const batch = () =>
  randomBatch((s, rng) => {
    s.oldLogp = s.lossMask.map((m) => m * (-3 + rng.float()));
    s.refLogp = s.lossMask.map((m) => m * (-3 + rng.float()));
  });

const config = (over: Partial<Config> = {}): Config => ({
  ...defaultConfig(),
  epochs: 1,
  minibatch: 4,
  stepsPerIteration: 0,
  klMode: 'loss',
  klCoef: 0.05,
  entropyCoef: 0.01,
  ...over,
});

async function update(c: Config, gradientSplit: boolean) {
  const policy = createPolicy(mc, new Rng(1));
  const policyOpt = new Adam({ epsilon: 1e-8 });
  const r = await ppoUpdate(batch(), { policy, policyOpt, critic: null }, c, true, new Rng(4), {
    lr: 1e-2,
    gradientSplit,
  });
  const weights = await weightValues(policy);
  policyOpt.dispose();
  disposeModel(policy);
  return { r, weights };
}

async function splitOf(c: Config, microRows?: number) {
  const policy = createPolicy(mc, new Rng(1));
  const mb = packMinibatch(batch(), mc.context);
  const out = await gradientSplit(policy, mb, policyStepSettings(c), microRows);
  disposeModel(policy);
  return out;
}

describe('RAGEN-2’s gradient split', () => {
  it('measures without touching the update: the same weights and step metrics, three more keys', async () => {
    const plain = await update(config(), false);
    const split = await update(config(), true);
    expect(split.weights).toEqual(plain.weights);
    const {
      'actor/gradNorm/task': task,
      'actor/gradNorm/kl': kl,
      'actor/gradNorm/entropy': ent,
      ...rest
    } = split.r.means;
    expect(rest).toEqual(plain.r.means);
    for (const v of [task, kl, ent]) expect(v).toBeGreaterThan(0);
  });

  it('the task part alone is the whole gradient when the loss has no KL and no entropy bonus', async () => {
    const c = config({ klMode: 'reward', entropyCoef: 0 });
    const split = await splitOf(c);
    expect(Object.keys(split)).toEqual(['actor/gradNorm/task']);
    const policy = createPolicy(mc, new Rng(1));
    const opt = new Adam({ epsilon: 1e-8 });
    const step = await policyStep(policy, opt, packMinibatch(batch(), mc.context), policyStepSettings(c, 0));
    opt.dispose();
    disposeModel(policy);
    expect(split['actor/gradNorm/task']).toBeCloseTo(step.gradNorm, 5);
  });

  it('each part scales with its own coefficient and no other', async () => {
    const a = await splitOf(config());
    const b = await splitOf(config({ klCoef: 0.1, entropyCoef: 0.03 }));
    expect(b['actor/gradNorm/task']).toBeCloseTo(a['actor/gradNorm/task'] as number, 6);
    expect((b['actor/gradNorm/kl'] as number) / (a['actor/gradNorm/kl'] as number)).toBeCloseTo(2, 4);
    expect((b['actor/gradNorm/entropy'] as number) / (a['actor/gradNorm/entropy'] as number)).toBeCloseTo(
      3,
      4,
    );
  });

  it('sums each part’s gradient over micro-batches before its norm', async () => {
    const whole = await splitOf(config());
    const pieces = await splitOf(config(), 1);
    for (const k of Object.keys(whole) as (keyof typeof whole)[])
      expect(pieces[k]).toBeCloseTo(whole[k] as number, 5);
  });
});

describe('Clip-Cov and KL-Cov in an update', () => {
  it('select tokens and are seeded: the same Rng gives the same weights', async () => {
    for (const policyLoss of ['clip-cov', 'kl-cov'] as const) {
      // Wide bounds, so Clip-Cov finds candidates in this small batch.
      const c = config({ policyLoss, clipCovLow: -10, clipCovHigh: 10, clipCovRatio: 0.2, klCovRatio: 0.2 });
      const a = await update(c, false);
      const b = await update(c, false);
      expect(a.weights).toEqual(b.weights);
      expect(a.r.means['actor/covFrac']).toBeGreaterThan(0.1);
      const clip = await update(config(), false);
      expect(a.weights).not.toEqual(clip.weights);
    }
  });
});
