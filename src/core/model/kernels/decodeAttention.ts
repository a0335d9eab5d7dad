// Fused attention for single-token decoding with the KV cache (forward only), for the webgpu
// backend: the unfused path spends matMul(q, kᵀ), mul (1/√K), add (bias), softmax and
// matMul(·, v) plus transposes per layer per token; this is one dispatch. One 64-thread
// workgroup per (row, head): scores over the S keys go to workgroup memory, then the softmax
// and the weighted sum of values. Output is [B, D] in head-major order, the layout the unfused
// path reaches after its transpose and reshape. B = rows, H = heads, S = keys, K = head width.
import type * as tf from '@tensorflow/tfjs';
import { callKernel, registerOnce, rowProgram, runProgram, WORKGROUP } from './program.js';

const KERNEL = 'StarpoDecodeAttention';

/** Longest key sequence the kernel holds in workgroup memory (8 KiB of scores). */
export const DECODE_MAX_KEYS = 2048;

/** Registers the kernel for the webgpu backend (idempotent). */
export function registerDecodeAttentionKernel(): void {
  registerOnce(KERNEL, ({ inputs, backend }) => {
    const q = inputs.q as tf.TensorInfo;
    const k = inputs.k as tf.TensorInfo;
    const [B, H] = k.shape as [number, number, number, number];
    const body = `
  let row = index / ${WORKGROUP};
  let tid = i32(localId.x);
  let H = uniforms.kShape[1];
  let S = uniforms.kShape[2];
  let K = uniforms.kShape[3];
  let b = row / H;
  let qBase = row * K;
  let kBase = row * S * K;
  let scale = inverseSqrt(f32(K));
  var m = -3.402823e+38;
  for (var j = tid; j < S; j = j + ${WORKGROUP}) {
    var dot = 0.0;
    for (var d = 0; d < K; d = d + 1) { dot = dot + q[qBase + d] * k[kBase + j * K + d]; }
    let sc = dot * scale + kbias[b * S + j];
    scores[j] = sc;
    m = max(m, sc);
  }
  let mx = reduceMax(tid, m);
  var s = 0.0;
  for (var j = tid; j < S; j = j + ${WORKGROUP}) {
    let e = exp(scores[j] - mx);
    scores[j] = e;
    s = s + e;
  }
  let total = reduceSum(tid, s);
  for (var d = tid; d < K; d = d + ${WORKGROUP}) {
    var acc = 0.0;
    for (var j = 0; j < S; j = j + 1) { acc = acc + scores[j] * v[kBase + j * K + d]; }
    result[qBase + d] = acc / total;
  }`;
    const program = rowProgram('starpoDecodeAttention', ['q', 'k', 'v', 'kbias'], q.shape, B * H, body);
    const user = program.getUserCode;
    program.getUserCode = () => `var<workgroup> scores : array<f32, ${DECODE_MAX_KEYS}>;\n${user()}`;
    return runProgram(backend, program, [q, k, inputs.v as tf.TensorInfo, inputs.kbias as tf.TensorInfo]);
  });
}

/**
 * Attention output [B, D] of one new query per row: `q` [B, D] (heads side by side), keys and
 * values [B, H, S, K] (the cache plus the new token), `keyBias` [B, 1, 1, S] additive. No
 * gradient: inference only. webgpu backend only; S ≤ DECODE_MAX_KEYS. Returns a new tensor.
 */
export function fusedDecodeAttention(
  q: tf.Tensor,
  k: tf.Tensor4D,
  v: tf.Tensor4D,
  keyBias: tf.Tensor4D,
): tf.Tensor2D {
  registerDecodeAttentionKernel();
  const [B, , S] = k.shape;
  if (S > DECODE_MAX_KEYS) throw new Error(`fusedDecodeAttention: ${S} keys exceed ${DECODE_MAX_KEYS}`);
  return callKernel(KERNEL, { q, k, v, kbias: keyBias.reshape([B, S]) }) as tf.Tensor2D;
}
