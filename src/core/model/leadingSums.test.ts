// leadingSums and addBias give tf.sum's and tf.add's numbers to the bit on wasm, at the shapes
// an echo-trap update takes (48 windows × 128 tokens: biases of width 256, 192 and 64,
// LayerNorm's [48, 128, 64], the position table's [128, 64] over the batch), on values with
// zeros and magnitudes from 1e-2 to 1e2 (where a change of order would show), and on cpu.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { Rng } from '../rng.js';
import { addBias, leadingSums } from './leadingSums.js';

const rng = new Rng(5);
function values(shape: number[]): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++)
    v[i] = rng.float() < 0.3 ? 0 : (rng.float() - 0.5) * Math.exp(9 * (rng.float() - 0.5));
  return tf.tensor(v, shape);
}

/** Indices where the two arrays' float32 bits differ. */
async function bitsApart(a: tf.Tensor, b: tf.Tensor): Promise<number> {
  const [x, y] = [new Uint32Array((await a.data()).buffer), new Uint32Array((await b.data()).buffer)];
  expect(x.length).toBe(y.length);
  let n = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) n++;
  return n;
}

const SHAPES: [number[], number][] = [
  [[6144, 256], 1],
  [[6144, 192], 1],
  [[6144, 64], 1],
  [[48, 128, 64], 1],
  [[48, 128, 64], 2],
  [[37, 5], 1],
];

for (const backend of ['wasm', 'cpu'] as const) {
  describe(`leadingSums on ${backend}`, () => {
    let before = '';
    beforeAll(async () => {
      before = tf.getBackend();
      await setupNodeBackend(backend);
    });
    afterAll(async () => {
      if (before) await tf.setBackend(before);
    });

    it.each(SHAPES)(
      'sums %j over all but its last %i axes as tf.sum does, bit for bit',
      async (shape, keep) => {
        const x = values(shape);
        const lead = Array.from({ length: shape.length - keep }, (_, i) => i);
        const ours = leadingSums(x, keep);
        const theirs = x.sum(lead);
        expect(ours.shape).toEqual(shape.slice(shape.length - keep));
        expect(await bitsApart(ours, theirs)).toBe(0);
        tf.dispose([x, ours, theirs]);
      },
    );

    it('gives addBias tf.add’s value and gradients, bit for bit', async () => {
      for (const [yShape, bShape] of [
        [[6144, 256], [256]],
        [
          [48, 128, 64],
          [128, 64],
        ],
      ]) {
        const y = values(yShape as number[]);
        const b = values(bShape as number[]);
        const dy = values(yShape as number[]);
        const f = (g: (p: tf.Tensor, q: tf.Tensor) => tf.Tensor) =>
          tf.grads((p: tf.Tensor, q: tf.Tensor) => g(p, q).mul(dy).sum())([y, b]);
        const [oy, ob] = f(addBias);
        const [ty, tb] = f((p, q) => p.add(q));
        expect(await bitsApart(oy as tf.Tensor, ty as tf.Tensor)).toBe(0);
        expect(await bitsApart(ob as tf.Tensor, tb as tf.Tensor)).toBe(0);
        const [v1, v2] = [addBias(y, b), y.add(b)];
        expect(await bitsApart(v1, v2)).toBe(0);
        tf.dispose([y, b, dy, oy, ob, ty, tb, v1, v2] as tf.Tensor[]);
      }
    });
  });
}
