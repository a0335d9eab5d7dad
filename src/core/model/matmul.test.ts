// matMulFast on wasm: the same values and gradients as tf.matMul for every transpose flag and
// for the batched (attention) shapes — small ones (tfjs's own batched product) and nano-sized
// ones (split into 2-D products) — and no tensors left behind.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { Rng } from '../rng.js';
import { matMulFast } from './matmul.js';

function randomTensor(shape: number[], rng: Rng): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return tf.tensor(
    Float32Array.from({ length: n }, () => rng.normal()),
    shape,
  );
}

async function maxDiff(a: tf.Tensor, b: tf.Tensor): Promise<number> {
  expect(a.shape).toEqual(b.shape);
  const [x, y] = await Promise.all([a.data(), b.data()]);
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs((x[i] as number) - (y[i] as number)));
  return m;
}

describe('matMulFast', () => {
  beforeAll(async () => {
    await setupNodeBackend('wasm');
  });

  const cases: [string, number[], number[], boolean, boolean][] = [
    ['plain 2-D', [5, 3], [3, 4], false, false],
    ['transposeB 2-D', [5, 3], [4, 3], false, true],
    ['transposeA 2-D', [3, 5], [3, 4], true, false],
    ['both 2-D', [3, 5], [4, 3], true, true],
    ['attention q·kᵀ', [2, 3, 6, 4], [2, 3, 7, 4], false, true],
    ['attention p·v', [2, 3, 6, 7], [2, 3, 7, 4], false, false],
    // M·K·N ≥ 2^16 per head: the split into 2-D products, forward and backward.
    ['nano attention q·kᵀ', [2, 3, 128, 16], [2, 3, 128, 16], false, true],
    ['nano attention p·v', [2, 3, 128, 128], [2, 3, 128, 16], false, false],
    ['batched transposeA', [4, 128, 32], [4, 128, 24], true, false],
  ];
  for (const [name, sa, sb, ta, tb] of cases) {
    it(`${name}: value and both gradients equal tf.matMul's`, async () => {
      expect(tf.getBackend()).toBe('wasm');
      const rng = new Rng(7);
      const a = randomTensor(sa, rng);
      const b = randomTensor(sb, rng);
      // A weighted sum, so every output element's gradient differs.
      const ref = tf.matMul(a, b, ta, tb);
      const weights = randomTensor(ref.shape, rng);
      const loss = (f: typeof matMulFast) => (x: tf.Tensor, y: tf.Tensor) =>
        f(x, y, ta, tb).mul(weights).sum();
      const refGrads = tf.grads(loss(tf.matMul as typeof matMulFast))([a, b]);
      const before = tf.memory().numTensors;
      const value = matMulFast(a, b, ta, tb);
      const grads = tf.grads(loss(matMulFast))([a, b]);
      expect(tf.memory().numTensors).toBe(before + 3); // the value and two gradients, nothing else
      // Sums of up to 128 products of N(0, 1) values: float order differs between the paths.
      const tol = 1e-5 * Math.max(1, ...sa, ...sb);
      expect(await maxDiff(value, ref)).toBeLessThan(tol);
      expect(await maxDiff(grads[0] as tf.Tensor, refGrads[0] as tf.Tensor)).toBeLessThan(tol);
      expect(await maxDiff(grads[1] as tf.Tensor, refGrads[1] as tf.Tensor)).toBeLessThan(tol);
      tf.dispose([value, ref, ...grads, ...refGrads]);
      tf.dispose([a, b, weights]);
    });
  }
});
