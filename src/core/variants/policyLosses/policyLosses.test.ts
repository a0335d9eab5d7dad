import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../config.js';
import { Rng } from '../../rng.js';
import { POLICY_LOSSES, type PolicyLossSettings } from '../policyLosses.js';
import { clipCovSelection, klCovSelection, selectedCount, tokenCovariances } from './covSelect.js';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// Three loss tokens and one masked: mean A = 1/3, mean log π = −2, so
// cov = (2/3)(1), (−4/3)(0), (2/3)(−1) = 0.667, 0, −0.667.
const f = (xs: number[]) => Float32Array.from(xs);
const base = { advantages: f([1, -1, 1, 0]), logp: f([-1, -2, -3, 0]), mask: f([1, 1, 1, 0]) };
const settings: PolicyLossSettings = { ...defaultConfig(), clipLow: 0.2, clipHigh: 0.2 };

describe('the covariance rule (covSelect.ts)', () => {
  it('centres advantage and log-prob over the loss tokens, as computed by hand', () => {
    const cov = tokenCovariances(base);
    expect(cov[0]).toBeCloseTo(2 / 3, 6);
    expect(cov[1]).toBeCloseTo(0, 6);
    expect(cov[2]).toBeCloseTo(-2 / 3, 6);
    expect(cov[3]).toBe(Number.NEGATIVE_INFINITY);
  });

  it('selects ⌊n·share⌋ tokens, at least one', () => {
    expect(selectedCount(1350, 0.002)).toBe(2);
    expect(selectedCount(1350, 0.0002)).toBe(1);
    expect(selectedCount(3, 0.7)).toBe(2);
  });

  it('KL-Cov takes the highest covariances first', () => {
    const x = { ...base, oldLogp: base.logp };
    expect([...klCovSelection(x, 0.01)]).toEqual([1, 0, 0, 0]);
    expect([...klCovSelection(x, 0.7)]).toEqual([1, 1, 0, 0]);
  });

  it('Clip-Cov draws among the tokens inside its bounds that the ratio clip left alone', () => {
    const s = { share: 0.01, low: 0.5, high: 5, clipLow: 0.2, clipHigh: 0.2 };
    expect([...clipCovSelection({ ...base, oldLogp: base.logp }, s, new Rng(1))]).toEqual([1, 0, 0, 0]);
    // Token 0's ratio e^0.5 is past 1 + 0.2 with A > 0: already clipped, so no candidate is left.
    const clipped = { ...base, oldLogp: f([-1.5, -2, -3, 0]) };
    expect([...clipCovSelection(clipped, s, new Rng(1))]).toEqual([0, 0, 0, 0]);
  });

  it('Clip-Cov’s random choice comes from the seeded stream', () => {
    const x = { ...base, oldLogp: base.logp };
    const s = { share: 0.5, low: -1, high: 5, clipLow: 0.2, clipHigh: 0.2 };
    const picks = [1, 2, 3, 4, 5, 6].map((seed) => [...clipCovSelection(x, s, new Rng(seed))].join(''));
    for (const p of picks) expect(p.split('').filter((c) => c === '1')).toHaveLength(1);
    expect(picks[0]).toBe([...clipCovSelection(x, s, new Rng(1))].join(''));
    expect(new Set(picks).size).toBeGreaterThan(1);
  });
});

describe('the entropy-mechanism losses (policyLosses/clipCov.ts, klCov.ts)', () => {
  const t = (xs: number[]) => tf.tensor2d([xs]);
  const val = async (s: tf.Tensor) => (await s.data())[0] as number;
  const adv = t([1, -1, 1, 0]);
  const mask = t([1, 1, 1, 0]);

  it('Clip-Cov zeroes the selected token’s loss and its gradient, keeping it in the mean', async () => {
    const old = t([-1, -2, -3, 0]);
    const selected = t([1, 0, 0, 0]);
    const loss = (logp: tf.Tensor) =>
      POLICY_LOSSES['clip-cov'].loss(
        { logp, oldLogp: old, advantages: adv, mask, selected },
        settings,
        'token-mean',
      ).pgLoss;
    // ratio 1 everywhere: −A = −1, 1, −1; token 0 dropped: (0 + 1 − 1) / 3.
    expect(await val(loss(t([-1, -2, -3, 0])))).toBeCloseTo(0, 6);
    const g = tf.grad(loss)(t([-1, -2, -3, 0]));
    const grad = [...(await g.data())];
    expect(grad[0]).toBeCloseTo(0, 6);
    expect(grad[1]).toBeCloseTo(1 / 3, 6);
    expect(grad[2]).toBeCloseTo(-1 / 3, 6);
  });

  it('KL-Cov adds β·|log r| on the selected token to the unclipped surrogate', async () => {
    const old = t([-1.5, -2, -3, 0]);
    const logp = t([-1, -2, -3, 0]);
    const r = POLICY_LOSSES['kl-cov'].loss(
      { logp, oldLogp: old, advantages: adv, mask, selected: t([1, 0, 0, 0]) },
      { ...settings, klCovCoef: 1 },
      'token-mean',
    );
    // −A·r = −e^0.5, 1, −1 (no clip at ratio 1.65); + 1·0.5 on token 0.
    expect(await val(r.pgLoss)).toBeCloseTo((-Math.exp(0.5) + 0.5 + 1 - 1) / 3, 5);
    expect(await val(r.clipFrac)).toBe(0);
  });

  it('the clip row is the clipped surrogate unchanged', async () => {
    const logp = t([Math.log(1.5), Math.log(0.5), Math.log(0.5), 0]);
    const r = POLICY_LOSSES.clip.loss(
      { logp, oldLogp: t([0, 0, 0, 0]), advantages: t([1, 1, -2, 0]), mask, selected: null },
      { ...settings, clipHigh: 0.28 },
      'token-mean',
    );
    expect(await val(r.pgLoss)).toBeCloseTo((-1.28 - 0.5 + 1.6) / 3, 5);
  });
});
