// The wasm kernels of wasmKernels.ts and the written gradients (LayerNorm, GELU, the products
// of matmul.ts): a loss's gradients for every weight on wasm match the CPU backend's (tfjs's
// plain kernels) on a model whose attention products take the in-place strided kernel, and the
// written LayerNorm gradient matches tfjs's autodiff; the row gather equals tf.gather and names
// a bad id; a shared clone outlives its source; inference's one-pass kernels (LayerNorm, GELU's
// argument, the scores' scale and bias: wasmInference.ts) give the ops' bits; nothing is left behind.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { Rng } from '../rng.js';
import { gelu, geluInference, layerNorm, layerNormAutodiff, layerNormInference } from './elementwise.js';
import { createPolicy, disposeModel, type Model, modelVariables } from './params.js';
import { policyLogProbs } from './scoring.js';
import { scaleBiasWasm } from './wasmInference.js';
import { gatherRowsWasm } from './wasmKernels.js';

// Head width 8 and 100 tokens: 100·8·100 multiply-adds a head, above the split's threshold.
const mc = { vocabSize: 40, dModel: 32, nLayers: 2, nHeads: 4, context: 128, mlpRatio: 4 };
let policy: Model;

beforeAll(async () => {
  await setupNodeBackend('wasm');
  policy = createPolicy(mc, new Rng(3));
});
afterAll(() => {
  disposeModel(policy);
});

/** The loss's value and its gradient for every weight, as arrays. */
async function lossAndGrads(
  tokens: tf.Tensor2D,
  rows: Int32Array,
): Promise<[number, Map<string, Float32Array>]> {
  const names = Object.keys(policy.weights);
  const { value, grads } = tf.variableGrads(
    () =>
      tf.tidy(() => {
        const { logp, entropy } = policyLogProbs(policy, tokens, 0.7, 'train', rows);
        return logp.sum().add(entropy.mul(0.3).sum()) as tf.Scalar;
      }),
    modelVariables(policy),
  );
  const out = new Map<string, Float32Array>();
  for (const [i, v] of modelVariables(policy).entries())
    out.set(names[i] as string, (await (grads[v.name] as tf.Tensor).data()) as Float32Array);
  const loss = (await value.data())[0] as number;
  tf.dispose([value, ...Object.values(grads)]);
  return [loss, out];
}

describe('wasm kernels', () => {
  it("give every weight the CPU backend's gradient (1e-5 of its scale)", async () => {
    expect(tf.getBackend()).toBe('wasm');
    const rng = new Rng(11);
    const tokens = tf.tensor2d(
      Array.from({ length: 3 * 100 }, () => rng.int(1, 40)),
      [3, 100],
      'int32',
    );
    const rows = Int32Array.from({ length: 60 }, (_, i) => i * 4 + (i % 3));
    await setupNodeBackend('cpu');
    const [oldLoss, oldGrads] = await lossAndGrads(tokens, rows);
    await setupNodeBackend('wasm');
    expect(tf.getBackend()).toBe('wasm');
    const before = tf.memory().numTensors;
    const [newLoss, newGrads] = await lossAndGrads(tokens, rows);
    expect(tf.memory().numTensors).toBe(before);
    expect(Math.abs(newLoss - oldLoss)).toBeLessThan(1e-4 * Math.abs(oldLoss));
    expect(newGrads.size).toBe(Object.keys(policy.weights).length);
    for (const [name, g] of oldGrads) {
      const h = newGrads.get(name) as Float32Array;
      const scale = Math.max(...g.map(Math.abs));
      let worst = 0;
      g.forEach((x, i) => {
        worst = Math.max(worst, Math.abs(x - (h[i] as number)));
      });
      expect(worst, name).toBeLessThanOrEqual(1e-5 * Math.max(scale, 1e-3));
    }
    tokens.dispose();
  });

  it('gathers rows as tf.gather does and names an id outside the table', async () => {
    const table = tf.tensor2d(
      Array.from({ length: 5 * 3 }, (_, i) => i * 0.5),
      [5, 3],
    );
    const ids = tf.tensor1d([4, 0, 0, 2], 'int32');
    const fast = gatherRowsWasm(table, ids);
    const ref = tf.gather(table, ids);
    expect(Array.from(await fast.data())).toEqual(Array.from(await ref.data()));
    expect(fast.shape).toEqual([4, 3]);
    const bad = tf.tensor1d([1, 5], 'int32');
    expect(() => gatherRowsWasm(table, bad)).toThrow(/row id 5 is outside the table's 5 rows/);
    tf.dispose([table, ids, fast, ref, bad]);
  });

  it('lets a clone share its data and outlive its source', async () => {
    const buffers = () => tf.engine().backend.numDataIds();
    const before = buffers();
    const x = tf.tensor1d([1, 2, 3]);
    const y = tf.clone(x);
    expect(y.dataId).toBe(x.dataId);
    expect(buffers()).toBe(before + 1); // one buffer for both
    x.dispose();
    expect(Array.from(await y.data())).toEqual([1, 2, 3]);
    y.dispose();
    expect(buffers()).toBe(before);
  });

  it("writes LayerNorm's gradient as tfjs's autodiff computes it", async () => {
    const rng = new Rng(5);
    const x = tf.tensor3d(
      Array.from({ length: 2 * 3 * 8 }, () => rng.normal()),
      [2, 3, 8],
    );
    const g = tf.tensor1d(Array.from({ length: 8 }, () => 1 + rng.normal(0, 0.3)));
    const b = tf.tensor1d(Array.from({ length: 8 }, () => rng.normal(0, 0.3)));
    const dy = tf.tensor3d(
      Array.from({ length: 2 * 3 * 8 }, () => rng.normal()),
      [2, 3, 8],
    );
    const grads = (f: typeof layerNorm) =>
      tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor) => f(a, c, d))([x, g, b], dy);
    const written = grads(layerNorm);
    const autodiff = grads(layerNormAutodiff);
    for (let i = 0; i < 3; i++) {
      const [w, a] = [await written[i]!.data(), await autodiff[i]!.data()];
      let worst = 0;
      w.forEach((v, j) => {
        worst = Math.max(worst, Math.abs(v - (a[j] as number)));
      });
      expect(worst, ['dx', 'dg', 'db'][i]).toBeLessThan(1e-5);
    }
    const yw = layerNorm(x, g, b);
    const ya = layerNormAutodiff(x, g, b);
    expect(Array.from(await yw.data())).toEqual(Array.from(await ya.data()));
    tf.dispose([x, g, b, dy, ...written, ...autodiff, yw, ya]);
  });

  it("gives inference's one-pass LayerNorm the ops' bits, rows of any scale, leading axes kept", async () => {
    const rng = new Rng(12);
    const [N, D] = [500, 64]; // within the one pass's size
    const xv = new Float32Array(N * D);
    for (let i = 0; i < xv.length; i++)
      xv[i] = (rng.float() - 0.5) * Math.exp(7 * (rng.float() - 0.5)) + (i % D === 0 ? 4 : 0);
    const x = tf.tensor3d(xv, [5, 100, D]);
    const g = tf.tensor1d(Array.from({ length: D }, () => 0.5 + rng.float()));
    const b = tf.tensor1d(Array.from({ length: D }, () => rng.float() - 0.5));
    const ours = layerNormInference(x, g, b);
    const ops = layerNorm(x, g, b);
    expect(ours.shape).toEqual([5, 100, D]);
    const [p, q] = [new Uint32Array((await ours.data()).buffer), new Uint32Array((await ops.data()).buffer)];
    let apart = 0;
    for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) apart++;
    expect(apart).toBe(0);
    tf.dispose([x, g, b, ours, ops]);
  });

  it("gives inference's one-pass GELU argument and score scaling the ops' bits", async () => {
    const rng = new Rng(13);
    const vals = (n: number, spread: number) =>
      Float32Array.from({ length: n }, () => (rng.float() - 0.5) * Math.exp(spread * (rng.float() - 0.5)));
    const bitsOf = async (t: tf.Tensor) => Array.from(new Uint32Array((await t.data()).buffer));
    // GELU on a decoding step's MLP width: [64, 256].
    const x = tf.tensor2d(vals(64 * 256, 6), [64, 256]);
    const [ours, ops] = [geluInference(x), gelu(x)];
    expect(await bitsOf(ours)).toEqual(await bitsOf(ops));
    // Scores [B, H, 1, S] scaled and biased, for 1/√16 and a scale that is not a power of two.
    const [B, H, S] = [8, 4, 37];
    const scores = tf.tensor4d(vals(B * H * S, 8), [B, H, 1, S]);
    const bias = tf.tensor4d(
      Float32Array.from({ length: B * S }, (_, i) => (i % 5 === 0 ? -1e9 : 0)),
      [B, 1, 1, S],
    );
    for (const scale of [0.25, 1 / Math.sqrt(12)]) {
      const [a, b] = [scaleBiasWasm(scores, bias, scale), scores.mul(scale).add(bias)];
      expect(await bitsOf(a)).toEqual(await bitsOf(b));
      tf.dispose([a, b]);
    }
    tf.dispose([x, ours, ops, scores, bias]);
  });
});
