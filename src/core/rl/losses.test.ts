import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { aggregate, type LossAgg, lossAggOf, maskedMean } from '../variants/lossAggs.js';
import { clippedPolicyLoss, ratioLevelOf } from '../variants/ratioLevels.js';
import { clippedValueLoss, dpoLoss, klPerToken } from './losses.js';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const t = (xs: number[]) => tf.tensor2d([xs]);
const val = async (s: tf.Tensor) => (await s.data())[0]!;

describe('clippedPolicyLoss', () => {
  it('takes each branch of the min/clip as computed by hand', async () => {
    // token0: ratio 1.5, A +1 → clipped at 1.28: −1.28 (clip taken)
    // token1: ratio 0.5, A +1 → unclipped −0.5 (the lower clip would give −0.8, not taken)
    // token2: ratio 0.5, A −2 → clipped at 0.8: 1.6 (clip taken)
    // token3: masked out
    const old = t([0, 0, 0, 0]);
    const logp = t([Math.log(1.5), Math.log(0.5), Math.log(0.5), Math.log(3)]);
    const adv = t([1, 1, -2, 5]);
    const mask = t([1, 1, 1, 0]);
    const r = clippedPolicyLoss(logp, old, adv, mask, 0.2, 0.28);
    expect(await val(r.pgLoss)).toBeCloseTo((-1.28 - 0.5 + 1.6) / 3, 5);
    expect(await val(r.clipFrac)).toBeCloseTo(2 / 3, 6);
    expect(await val(r.approxKl)).toBeCloseTo((-Math.log(1.5) - 2 * Math.log(0.5)) / 3, 5);
  });

  it('clips asymmetrically: ratio 1.25 is inside ε_high = 0.28, outside ε = 0.2', async () => {
    const logp = t([Math.log(1.25)]);
    const zero = t([0]);
    const one = t([1]);
    expect(await val(clippedPolicyLoss(logp, zero, one, one, 0.2, 0.28).pgLoss)).toBeCloseTo(-1.25, 5);
    expect(await val(clippedPolicyLoss(logp, zero, one, one, 0.2, 0.2).pgLoss)).toBeCloseTo(-1.2, 5);
  });

  it('gives zero gradient to masked tokens', async () => {
    const logp = tf.variable(t([0.1, -0.2, 0.3]));
    const g = tf.grad(
      (x: tf.Tensor) => clippedPolicyLoss(x, t([0, 0, 0]), t([1, -1, 2]), t([1, 0, 1]), 0.2, 0.2).pgLoss,
    )(logp);
    expect((await g.data())[1]).toBe(0);
  });
});

describe('KL estimators', () => {
  it('k1 and k3 match hand values', async () => {
    const logp = t([-1]);
    const ref = t([-1.5]);
    expect(await val(klPerToken(logp, ref, 'k1'))).toBeCloseTo(0.5, 6);
    expect(await val(klPerToken(logp, ref, 'k3'))).toBeCloseTo(Math.exp(-0.5) + 0.5 - 1, 6);
  });
});

describe('maskedMean', () => {
  it('averages only masked positions', async () => {
    expect(await val(maskedMean(t([1, 2, 3, 100]), t([1, 1, 1, 0])))).toBeCloseTo(2, 6);
  });
});

describe('clippedValueLoss', () => {
  it('takes the larger of the clipped and unclipped errors', async () => {
    // tok0: (1 − 0)² = 1 vs (0.5 + 0.2 − 0)² = 0.49 → 1
    // tok1: (0.9 − 1)² = 0.01 vs (0.1 + 0.2 − 1)² = 0.49 → 0.49;  0.5·mean = 0.3725
    const v = t([1.0, 0.9]);
    const old = t([0.5, 0.1]);
    const ret = t([0, 1]);
    const mask = t([1, 1]);
    expect(await val(clippedValueLoss(v, old, ret, mask, 0.2))).toBeCloseTo(0.3725, 5);
    expect(await val(clippedValueLoss(v, old, ret, mask, 0))).toBeCloseTo(0.5 * ((1 + 0.01) / 2), 5);
  });
});

describe('dpoLoss', () => {
  it('matches a hand example with one right and one wrong pair', async () => {
    // pair 1: β((−2 + 2.5) − (−3 + 2.5)) = 0.5·1 = 0.5 → softplus(−0.5) = 0.474077
    // pair 2: β((−4 + 3) − (−1 + 1)) = −0.5 → softplus(0.5) = 0.974077
    const r = dpoLoss(
      tf.tensor1d([-2, -4]),
      tf.tensor1d([-3, -1]),
      tf.tensor1d([-2.5, -3]),
      tf.tensor1d([-2.5, -1]),
      0.5,
    );
    expect(await val(r.loss)).toBeCloseTo((0.474077 + 0.974077) / 2, 5);
    expect(await val(r.accuracy)).toBe(0.5);
    expect(await val(r.margin)).toBeCloseTo(0, 6);
  });
});

describe('sumScalars', () => {
  it('adds any number of scalars pairwise, exactly as a loop', async () => {
    const { sumScalars } = await import('./update.js');
    for (const n of [0, 1, 2, 3, 7, 29]) {
      const xs = Array.from({ length: n }, (_, i) => tf.scalar(i * 0.5 + 1));
      const expected = xs.reduce((a, _, i) => a + (i * 0.5 + 1), 0);
      expect(await val(sumScalars(xs))).toBeCloseTo(expected, 5);
    }
  });
});

describe('loss aggregation (verl loss_agg_mode)', () => {
  // Row 0: three masked tokens 1, 2, 3; row 1: one masked token 10; row 2: none.
  const x = () =>
    tf.tensor2d([
      [1, 2, 3],
      [10, 0, 0],
      [7, 7, 7],
    ]);
  const mask = () =>
    tf.tensor2d([
      [1, 1, 1],
      [1, 0, 0],
      [0, 0, 0],
    ]);

  it('token-mean weights every masked token alike: (1 + 2 + 3 + 10) / 4', async () => {
    expect(await val(aggregate(x(), mask(), 'token-mean'))).toBeCloseTo(4, 6);
  });

  it('seq-mean-token-mean weights every sequence alike: (2 + 10) / 2, empty rows left out', async () => {
    expect(await val(aggregate(x(), mask(), 'seq-mean-token-mean'))).toBeCloseTo(6, 6);
  });

  it('the clipped surrogate follows the switch', async () => {
    // ratio 1 everywhere: pgLoss = −mean A under each aggregation.
    const zeros = tf.zeros([3, 3]);
    const tokenMean = clippedPolicyLoss(zeros, zeros, x(), mask(), 0.2, 0.2, 'token-mean');
    const seqMean = clippedPolicyLoss(zeros, zeros, x(), mask(), 0.2, 0.2, 'seq-mean-token-mean');
    expect(await val(tokenMean.pgLoss)).toBeCloseTo(-4, 6);
    expect(await val(seqMean.pgLoss)).toBeCloseTo(-6, 6);
    // clipFrac and approxKl stay token means (as verl).
    expect(await val(seqMean.approxKl)).toBeCloseTo(0, 6);
  });

  it('seq-mean-token-sum (Dr. GRPO) sums each sequence, then averages sequences: (6 + 10) / 2', async () => {
    expect(await val(aggregate(x(), mask(), 'seq-mean-token-sum'))).toBeCloseTo(8, 6);
  });
});

describe('the sequence-level ratio (GSPO)', () => {
  it('takes one ratio per sequence from its mean log-ratio and clips it per sequence, by hand', async () => {
    // Row 0: log-ratios 0.2, 0.4 over 2 tokens → s = e^0.3 = 1.34986; A = 1 on both tokens.
    //   clipped at 1 + 0.28: loss = max(−1.34986, −1.28) = −1.28 (clipped).
    // Row 1: log-ratio −0.1 on its 1 token → s = e^−0.1 = 0.904837; A = −2.
    //   loss = max(1.809675, −2·clip(0.904837, 0.8, 1.28) = 1.809675) = 1.809675 (not clipped).
    // Row 2: no tokens, left out. pgLoss = (−1.28 + 1.809675) / 2 = 0.2648374; clipFrac = 1/2.
    const logp = tf.tensor2d([
      [0.2, 0.4, 9],
      [-0.1, 5, 5],
      [3, 3, 3],
    ]);
    const old = tf.zeros([3, 3]);
    const adv = tf.tensor2d([
      [1, 1, 0],
      [-2, 0, 0],
      [0, 0, 0],
    ]);
    const m = tf.tensor2d([
      [1, 1, 0],
      [1, 0, 0],
      [0, 0, 0],
    ]);
    const parts = clippedPolicyLoss(logp, old, adv, m, 0.2, 0.28, 'token-mean', 'sequence');
    expect(await val(parts.pgLoss)).toBeCloseTo(0.2648374, 5);
    expect(await val(parts.clipFrac)).toBeCloseTo(0.5, 6);
    // approxKl stays the token mean of old − new: −(0.2 + 0.4 − 0.1) / 3.
    expect(await val(parts.approxKl)).toBeCloseTo(-0.5 / 3, 6);
    // With one token per row and ratio 1 the sequence loss is the token loss.
    const one = tf.tensor2d([[1], [1]]);
    const z = tf.zeros([2, 1]);
    const a = tf.tensor2d([[0.5], [-1.5]]);
    const seq = clippedPolicyLoss(z, z, a, one, 0.2, 0.2, 'token-mean', 'sequence');
    const tok = clippedPolicyLoss(z, z, a, one, 0.2, 0.2, 'token-mean', 'token');
    expect(await val(seq.pgLoss)).toBeCloseTo(await val(tok.pgLoss), 6);
  });
});

describe('the loss tables', () => {
  it('name an unknown aggregation or ratio level in their errors', () => {
    expect(() => lossAggOf('token-sum' as LossAgg)).toThrow('unknown loss aggregation "token-sum"');
    expect(() => ratioLevelOf('turn' as never)).toThrow('unknown ratio level "turn"');
  });
});
