import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import type { ModelConfig } from './config.js';
import { createPolicy, disposeModel, type Model } from './params.js';
import { bucketLength, maskedRows, padRows, policyLogProbs, scoreSequences } from './scoring.js';

// A tiny policy whose forward pass is recomputed below in plain float64 loops, one row at a time.
const config: ModelConfig = { vocabSize: 11, dModel: 8, nLayers: 2, nHeads: 2, context: 70, mlpRatio: 4 };
let policy: Model;
let W: Record<string, Float32Array>;

beforeAll(async () => {
  await tf.setBackend('cpu');
  policy = createPolicy(config, new Rng(21));
  W = {};
  for (const name of policy.names) W[name] = (await policy.weights[name]?.data()) as Float32Array;
});
afterAll(() => disposeModel(policy));

const at = (name: string): Float32Array => W[name] as Float32Array;

/** x [n] · M [n, m] + b [m]. */
function affine(x: number[], M: Float32Array, b: Float32Array | null, m: number): number[] {
  const out = Array.from({ length: m }, (_, j) => (b ? (b[j] as number) : 0));
  x.forEach((xi, i) => {
    for (let j = 0; j < m; j++) out[j] = (out[j] as number) + xi * (M[i * m + j] as number);
  });
  return out;
}

function norm(x: number[], g: Float32Array, b: Float32Array): number[] {
  const mean = x.reduce((s, v) => s + v, 0) / x.length;
  const variance = x.reduce((s, v) => s + (v - mean) ** 2, 0) / x.length;
  return x.map((v, i) => ((v - mean) / Math.sqrt(variance + 1e-5)) * (g[i] as number) + (b[i] as number));
}

const gelu = (v: number) => 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3)));

/** Next-token log-probabilities after every prefix of `ids`, by hand. */
function handLogProbs(ids: number[]): number[][] {
  const { dModel: D, nHeads: H, vocabSize: V } = config;
  const K = D / H;
  let xs = ids.map((id, t) =>
    Array.from({ length: D }, (_, d) => (at('wte')[id * D + d] as number) + (at('wpe')[t * D + d] as number)),
  );
  for (let l = 0; l < config.nLayers; l++) {
    const p = `h${l}.`;
    const qkv = xs.map((x) =>
      affine(norm(x, at(`${p}ln1.g`), at(`${p}ln1.b`)), at(`${p}attn.wqkv`), at(`${p}attn.bqkv`), 3 * D),
    );
    const att = xs.map((_, t) => {
      const out: number[] = [];
      for (let h = 0; h < H; h++) {
        const q = (qkv[t] as number[]).slice(h * K, h * K + K);
        const scores = qkv
          .slice(0, t + 1)
          .map(
            (r) =>
              r.slice(D + h * K, D + h * K + K).reduce((s, k, i) => s + k * (q[i] as number), 0) /
              Math.sqrt(K),
          );
        const mx = Math.max(...scores);
        const e = scores.map((s) => Math.exp(s - mx));
        const z = e.reduce((s, v) => s + v, 0);
        for (let i = 0; i < K; i++)
          out.push(
            e.reduce((s, w, j) => s + (w / z) * ((qkv[j] as number[])[2 * D + h * K + i] as number), 0),
          );
      }
      return out;
    });
    xs = xs.map((x, t) => {
      const a = affine(att[t] as number[], at(`${p}attn.wo`), at(`${p}attn.bo`), D);
      const y = x.map((v, i) => v + (a[i] as number));
      const hid = affine(
        norm(y, at(`${p}ln2.g`), at(`${p}ln2.b`)),
        at(`${p}mlp.wfc`),
        at(`${p}mlp.bfc`),
        4 * D,
      ).map(gelu);
      const m = affine(hid, at(`${p}mlp.wproj`), at(`${p}mlp.bproj`), D);
      return y.map((v, i) => v + (m[i] as number));
    });
  }
  return xs.map((x) => {
    const hN = norm(x, at('lnf.g'), at('lnf.b'));
    const logits = Array.from({ length: V }, (_, v) =>
      hN.reduce((s, h, d) => s + h * (at('wte')[v * D + d] as number), 0),
    );
    const mx = Math.max(...logits);
    const lse = mx + Math.log(logits.reduce((s, z) => s + Math.exp(z - mx), 0));
    return logits.map((z) => z - lse);
  });
}

describe('scoring', () => {
  it('matches a hand-built one-row computation of masked log-probs and entropy', async () => {
    const rows = [
      [1, 4, 9, 2, 7, 7, 3, 10, 5],
      [1, 6, 6],
    ];
    const masks = [Uint8Array.from([0, 0, 0, 1, 1, 0, 1, 1, 1]), Uint8Array.from([0, 1, 1])];
    const scored = await scoreSequences(policy, rows, { masks });
    rows.forEach((ids, b) => {
      const hand = handLogProbs(ids);
      let sum = 0;
      let entSum = 0;
      let count = 0;
      for (let t = 0; t + 1 < ids.length; t++) {
        const lp = (hand[t] as number[])[ids[t + 1] as number] as number;
        const ent = -(hand[t] as number[]).reduce((s, v) => s + Math.exp(v) * v, 0);
        expect(scored.logps[b]?.[t]).toBeCloseTo(lp, 4);
        expect(scored.entropies[b]?.[t]).toBeCloseTo(ent, 4);
        if (masks[b]?.[t + 1]) {
          sum += lp;
          entSum += ent;
          count++;
        }
      }
      expect(scored.maskedLogpSum[b]).toBeCloseTo(sum, 4);
      expect(scored.maskedEntropyMean[b]).toBeCloseTo(entSum / count, 4);
    });
  });

  it('gives the same numbers padded to a bucket as unpadded, and with a temperature', async () => {
    const ids = [1, 4, 9, 2, 7];
    const unpadded = tf.tidy(() => policyLogProbs(policy, tf.tensor2d([ids], [1, 5], 'int32'), 0.5).logp);
    const direct = await unpadded.data();
    unpadded.dispose();
    const bucketed = await scoreSequences(policy, [ids], { temperature: 0.5 });
    for (let t = 0; t < direct.length; t++)
      expect(bucketed.logps[0]?.[t]).toBeCloseTo(direct[t] as number, 5);
    const hand = handLogProbs(ids);
    const t1 = (hand[0] as number[]).map((v) => v / 0.5);
    const lse = Math.log(t1.reduce((s, v) => s + Math.exp(v), 0));
    expect(direct[0]).toBeCloseTo((t1[4] as number) - lse, 4);
  });

  it('on the masked rows alone gives the full values there, zero elsewhere, and the same gradients', async () => {
    const ids = [
      [1, 4, 9, 2, 7, 7, 3, 10],
      [1, 6, 6, 2, 5, 0, 0, 0],
    ];
    const mask = Float32Array.from([0, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0]); // [2, 7]
    const rows = maskedRows(mask);
    expect(Array.from(rows)).toEqual([2, 3, 5, 6, 8, 11]);
    const tokens = tf.tensor2d(ids.flat(), [2, 8], 'int32');
    const m = tf.tensor2d(mask, [2, 7]);
    const run = (r?: Int32Array) => {
      const { value, grads } = tf.variableGrads(() => {
        const { logp, entropy } = policyLogProbs(policy, tokens, 0.7, 'train', r);
        return logp.mul(m).sum().add(entropy.mul(m).sum().mul(0.3)) as tf.Scalar;
      });
      const out = tf.tidy(() => policyLogProbs(policy, tokens, 0.7, 'train', r));
      return { value, grads, out };
    };
    const full = run();
    const part = run(rows);
    expect((await part.value.data())[0]).toBeCloseTo((await full.value.data())[0] as number, 5);
    const [fl, pl] = [await full.out.logp.data(), await part.out.logp.data()];
    const [fe, pe] = [await full.out.entropy.data(), await part.out.entropy.data()];
    for (let i = 0; i < mask.length; i++) {
      expect(pl[i]).toBeCloseTo(mask[i] ? (fl[i] as number) : 0, 6);
      expect(pe[i]).toBeCloseTo(mask[i] ? (fe[i] as number) : 0, 6);
    }
    for (const name of policy.names) {
      const [a, b] = [await full.grads[name]?.data(), await part.grads[name]?.data()];
      a?.forEach((x, i) => {
        expect(b?.[i]).toBeCloseTo(x, 5);
      });
    }
    tf.dispose([
      tokens,
      m,
      full.value,
      part.value,
      full.out.logp,
      full.out.entropy,
      part.out.logp,
      part.out.entropy,
    ]);
    tf.dispose([...Object.values(full.grads), ...Object.values(part.grads)]);
  });

  it('picks buckets and pads rows', () => {
    expect([
      bucketLength(3, 512),
      bucketLength(64, 512),
      bucketLength(65, 512),
      bucketLength(300, 300),
    ]).toEqual([32, 64, 96, 300]);
    expect(() => bucketLength(600, 512)).toThrow(/context 512/);
    expect(Array.from(padRows([[5, 6], [7]], 3, 0))).toEqual([5, 6, 0, 7, 0, 0]);
  });
});
