// Correctness of the fused WebGPU kernels (src/core/model/kernels): each fused op and its
// gradient against the unfused tfjs path on tiny random inputs, then the whole model — policy
// log-probs and entropies with the gradients of every weight, and a KV-cached decode step.
// Runs wherever the webgpu backend is active: in Node through the `webgpu` package and in
// headless Chromium (tests/e2e/kernels.spec.ts). Pure tfjs, no DOM or Node APIs.
import * as tf from '@tensorflow/tfjs';
import { layerNormAutodiff } from '../core/model/elementwise.js';
import {
  fusedCausalAttention,
  fusedDecodeAttention,
  fusedGelu,
  fusedLayerNorm,
  fusedTokenLogProbs,
  setFusedKernels,
} from '../core/model/kernels/index.js';
import { createPolicy, modelVariables } from '../core/model/params.js';
import { policyLogProbs } from '../core/model/scoring.js';
import { forward, lmLogits, MASKED } from '../core/model/transformer.js';
import { Rng } from '../core/rng.js';
import type { KernelCheckReport, KernelCheckRow } from './checkRows.js';
import { checkOptimizer } from './optimizerCheck.js';

function randn(rng: Rng, shape: number[], std = 1): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = rng.normal(0, std);
  return tf.tensor(v, shape);
}

async function maxDiff(a: tf.Tensor | tf.Tensor[], b: tf.Tensor | tf.Tensor[]): Promise<number> {
  const xs = Array.isArray(a) ? a : [a];
  const ys = Array.isArray(b) ? b : [b];
  let worst = 0;
  for (let i = 0; i < xs.length; i++) {
    const d = tf.tidy(() => tf.max(tf.abs(tf.sub(xs[i] as tf.Tensor, ys[i] as tf.Tensor))));
    worst = Math.max(worst, (await d.data())[0] as number);
    d.dispose();
  }
  return worst;
}

/** Values and gradients (w.r.t. `xs`) of Σ f(xs)·weights, fused and unfused. */
async function compareOp(
  name: string,
  xs: tf.Tensor[],
  fusedFn: (...xs: tf.Tensor[]) => tf.Tensor,
  refFn: (...xs: tf.Tensor[]) => tf.Tensor,
  weights: tf.Tensor,
  tolerance: number,
): Promise<KernelCheckRow> {
  const run = (f: (...xs: tf.Tensor[]) => tf.Tensor) =>
    tf.tidy(() => {
      const value = f(...xs);
      const grads = tf.grads((...inputs: tf.Tensor[]) => tf.sum(tf.mul(f(...inputs), weights)))(xs);
      return [value, ...grads];
    });
  const [fv, ...fg] = run(fusedFn);
  const [rv, ...rg] = run(refFn);
  const valueDiff = await maxDiff(fv as tf.Tensor, rv as tf.Tensor);
  const gradDiff = await maxDiff(fg, rg);
  tf.dispose([fv as tf.Tensor, rv as tf.Tensor, ...fg, ...rg]);
  return { name, valueDiff, gradDiff, ok: valueDiff <= tolerance && gradDiff <= tolerance };
}

async function checkLayerNorm(rng: Rng, rows: number, D: number, tol: number): Promise<KernelCheckRow> {
  const gain = randn(rng, [D], 0.5);
  const xs = [randn(rng, [2, rows, D], 2), tf.tidy(() => gain.add(1)), randn(rng, [D], 0.5)];
  gain.dispose();
  const weights = randn(rng, [2, rows, D]);
  const r = await compareOp(
    `layerNorm [2, ${rows}, ${D}]`,
    xs,
    (x, g, b) => fusedLayerNorm(x as tf.Tensor, g as tf.Tensor, b as tf.Tensor),
    (x, g, b) => layerNormAutodiff(x as tf.Tensor, g as tf.Tensor, b as tf.Tensor),
    weights,
    tol,
  );
  tf.dispose([...xs, weights]);
  return r;
}

async function checkTokenLogProbs(
  rng: Rng,
  B: number,
  T: number,
  V: number,
  tol: number,
): Promise<KernelCheckRow> {
  const logits = randn(rng, [B, T, V], 3);
  const ids = new Int32Array(B * T).map(() => rng.int(0, V));
  const targets = tf.tensor2d(ids, [B, T], 'int32');
  const weights = randn(rng, [2, B, T]);
  const r = await compareOp(
    `logSoftmax+gather+entropy [${B}, ${T}, ${V}]`,
    [logits],
    (l) => {
      const { logp, entropy } = fusedTokenLogProbs(l as tf.Tensor3D, targets);
      return tf.stack([logp, entropy]);
    },
    (l) => {
      const lp = tf.logSoftmax(l as tf.Tensor);
      const logp = lp.mul(tf.oneHot(targets, V)).sum(-1);
      const entropy = lp.exp().mul(lp).sum(-1).neg();
      return tf.stack([logp, entropy]);
    },
    weights,
    tol,
  );
  tf.dispose([logits, targets, weights]);
  return r;
}

async function checkDecodeAttention(rng: Rng, B: number, H: number, S: number, K: number, tol: number) {
  const q = randn(rng, [B, H * K]);
  const k = randn(rng, [B, H, S, K]) as tf.Tensor4D;
  const v = randn(rng, [B, H, S, K]) as tf.Tensor4D;
  const bias = new Float32Array(B * S);
  for (let b = 0; b < B; b++) bias.fill(MASKED, b * S, b * S + (b % S)); // row b: b padding keys
  const keyBias = tf.tensor4d(bias, [B, 1, 1, S]);
  const fused = tf.tidy(() => fusedDecodeAttention(q, k, v, keyBias));
  const ref = tf.tidy(() => {
    const qh = q.reshape([B, H, 1, K]);
    const scores = tf
      .matMul(qh, k, false, true)
      .mul(1 / Math.sqrt(K))
      .add(keyBias);
    return tf.matMul(tf.softmax(scores), v).reshape([B, H * K]);
  });
  const valueDiff = await maxDiff(fused, ref);
  tf.dispose([q, k, v, keyBias, fused, ref]);
  return { name: `decodeAttention B${B} H${H} S${S} K${K}`, valueDiff, gradDiff: null, ok: valueDiff <= tol };
}

async function checkGelu(rng: Rng, shape: number[], tol: number): Promise<KernelCheckRow> {
  const x = randn(rng, shape, 2.5);
  const weights = randn(rng, shape);
  const r = await compareOp(
    `gelu [${shape.join(', ')}]`,
    [x],
    (t) => fusedGelu(t as tf.Tensor),
    (t) => {
      const v = t as tf.Tensor;
      const inner = v.add(v.pow(3).mul(0.044715)).mul(Math.sqrt(2 / Math.PI));
      return v.mul(tf.tanh(inner).add(1)).mul(0.5);
    },
    weights,
    tol,
  );
  tf.dispose([x, weights]);
  return r;
}

/** Causal attention from the fused qkv projection, as transformer.ts computes it unfused. */
function refCausalAttention(qkv: tf.Tensor, B: number, T: number, H: number): tf.Tensor {
  const D = (qkv.shape[1] as number) / 3;
  const K = D / H;
  const heads = (t: tf.Tensor) => t.reshape([B, T, H, K]).transpose([0, 2, 1, 3]);
  const [q, k, v] = tf.split(qkv, 3, 1) as [tf.Tensor, tf.Tensor, tf.Tensor];
  const causal = new Float32Array(T * T);
  for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) causal[i * T + j] = MASKED;
  const bias = tf.tensor2d(causal, [T, T]);
  const scores = tf
    .matMul(heads(q), heads(k), false, true)
    .mul(1 / Math.sqrt(K))
    .add(bias);
  return tf
    .matMul(tf.softmax(scores), heads(v))
    .transpose([0, 2, 1, 3])
    .reshape([B * T, D]);
}

async function checkCausalAttention(
  rng: Rng,
  B: number,
  T: number,
  H: number,
  K: number,
  tol: number,
): Promise<KernelCheckRow> {
  const qkv = randn(rng, [B * T, 3 * H * K]);
  const weights = randn(rng, [B * T, H * K]);
  const r = await compareOp(
    `causal attention B${B} T${T} H${H} K${K}`,
    [qkv],
    (x) => fusedCausalAttention(x as tf.Tensor2D, B, T, H),
    (x) => refCausalAttention(x as tf.Tensor, B, T, H),
    weights,
    tol,
  );
  tf.dispose([qkv, weights]);
  return r;
}

/** The whole policy: log-probs, entropies and every weight's gradient; then a cached decode step. */
async function checkModel(rng: Rng, tol: number): Promise<KernelCheckRow[]> {
  const config = { vocabSize: 37, dModel: 32, nLayers: 2, nHeads: 4, context: 24, mlpRatio: 4 };
  const policy = createPolicy(config, rng.fork('model'));
  const B = 3;
  const T = 12;
  const ids = new Int32Array(B * T).map(() => rng.int(0, config.vocabSize));
  const tokens = tf.tensor2d(ids, [B, T], 'int32');
  const w1 = randn(rng, [B, T - 1]);
  const w2 = randn(rng, [B, T - 1]);
  const vars = modelVariables(policy);
  const score = (fusedOn: boolean) => {
    setFusedKernels(fusedOn);
    return tf.tidy(() => {
      const { logp, entropy } = policyLogProbs(policy, tokens);
      const { grads } = tf.variableGrads(() => {
        const r = policyLogProbs(policy, tokens);
        return tf.add(tf.sum(tf.mul(r.logp, w1)), tf.sum(tf.mul(r.entropy, w2))) as tf.Scalar;
      }, vars);
      return [tf.stack([logp, entropy]), ...vars.map((v) => grads[v.name] as tf.Tensor)];
    });
  };
  // Prefill the first 8 tokens, then one cached step with padding keys masked, as sampling does.
  const decode = (fusedOn: boolean) => {
    setFusedKernels(fusedOn);
    return tf.tidy(() => {
      const pad = new Float32Array(B * 9);
      pad.fill(MASKED, 0, 2); // row 0 has two padding keys
      const first = forward(policy, {
        tokens: tokens.slice([0, 0], [B, 8]),
        keyBias: tf.tensor4d(
          pad.filter((_, i) => i % 9 < 8),
          [B, 1, 1, 8],
        ),
        embed: 'gather',
      });
      const next = forward(policy, {
        tokens: tokens.slice([0, 8], [B, 1]),
        keyBias: tf.tensor4d(pad, [B, 1, 1, 9]),
        cache: first.cache,
        embed: 'gather',
      });
      return lmLogits(policy, next.hidden);
    });
  };
  try {
    const [fv, ...fg] = score(true);
    const [rv, ...rg] = score(false);
    const fd = decode(true);
    const rd = decode(false);
    const valueDiff = await maxDiff(fv as tf.Tensor, rv as tf.Tensor);
    const gradDiff = await maxDiff(fg, rg);
    const decodeDiff = await maxDiff(fd, rd);
    tf.dispose([fv as tf.Tensor, rv as tf.Tensor, ...fg, ...rg, fd, rd]);
    return [
      {
        name: 'policy logp+entropy, all weight gradients',
        valueDiff,
        gradDiff,
        ok: valueDiff <= tol && gradDiff <= tol,
      },
      { name: 'cached decode step logits', valueDiff: decodeDiff, gradDiff: null, ok: decodeDiff <= tol },
    ];
  } finally {
    setFusedKernels(true);
    tf.dispose([tokens, w1, w2, ...vars]);
  }
}

/**
 * Compares every fused kernel (values and gradients) with the unfused path; the active backend
 * must be webgpu. Shapes are tiny (seconds on a software adapter). Leaves no tensors behind.
 */
export async function checkKernels(tolerance = 1e-4, seed = 7): Promise<KernelCheckReport> {
  if (tf.getBackend() !== 'webgpu')
    throw new Error(`checkKernels: backend is ${tf.getBackend()}, not webgpu`);
  const rng = new Rng(seed);
  setFusedKernels(true);
  const rows: KernelCheckRow[] = [
    await checkLayerNorm(rng, 5, 40, tolerance),
    await checkLayerNorm(rng, 3, 130, tolerance),
    await checkTokenLogProbs(rng, 2, 5, 70, tolerance),
    await checkTokenLogProbs(rng, 1, 3, 300, tolerance),
    await checkDecodeAttention(rng, 3, 2, 7, 4, tolerance),
    await checkDecodeAttention(rng, 2, 4, 70, 16, tolerance),
    await checkGelu(rng, [3, 7, 11], tolerance),
    await checkCausalAttention(rng, 2, 5, 2, 4, tolerance),
    await checkCausalAttention(rng, 3, 70, 2, 8, tolerance),
    ...(await checkModel(rng, tolerance)),
    ...(await checkOptimizer(rng, tolerance)),
  ];
  return { backend: tf.getBackend(), tolerance, rows, ok: rows.every((r) => r.ok) };
}
