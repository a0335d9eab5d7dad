// Fused causal self-attention for the webgpu backend, with gradient: what transformer.ts spends
// on split, three head transposes, matMul(q, kᵀ), scale, mask, softmax, matMul(·, v) and the
// transpose back (~12 dispatches forward, ~14 backward per layer) becomes one dispatch forward
// and two backward. It reads the fused projection qkv [B·T, 3D] directly (row b·T+t holds
// q | k | v, head h at columns h·K…h·K+K−1 of each) and writes [B·T, D] in the merged layout.
// Query i sees keys j ≤ i (no padding bias: training and scoring rows are right-padded, and
// padding keys after a real token are never seen by it). Backward (with s_ij = scale·q_i·k_j,
// P = softmax_j(s), O = P·V, dO the incoming gradient):
//   D_i = dO_i·O_i,  dS_ij = P_ij·(dO_i·v_j − D_i),
//   dq_i = scale·Σ_j dS_ij k_j,  dk_j = scale·Σ_i dS_ij q_i,  dv_j = Σ_i P_ij dO_i.
// Kernel 1 runs per query row (dq_i, log-sum-exp_i, D_i); kernel 2 per key row (dk_j, dv_j)
// and assembles the gradient of qkv. One 64-thread workgroup per (token, head) in both.
import * as tf from '@tensorflow/tfjs';
import { callKernel, MAX_ROWS, registerOnce, rowProgram, runProgram, WORKGROUP } from './program.js';

const FORWARD = 'StarpoCausalAttention';
const GRAD_Q = 'StarpoCausalAttentionGradQ';
const GRAD_QKV = 'StarpoCausalAttentionGradQkv';

/** Longest sequence the training kernels hold in workgroup memory (two arrays of 4 KiB). */
export const ATTENTION_MAX_TOKENS = 1024;

/** Index arithmetic shared by the three kernels: row = (b·T + t)·H + h. */
const ROW = `
  let row = index / ${WORKGROUP};
  let tid = i32(localId.x);
  let T = uniforms.T;
  let H = uniforms.H;
  let D3 = uniforms.qkvShape[1];
  let D = D3 / 3;
  let K = D / H;
  let bt = row / H;
  let h = row - bt * H;
  let b = bt / T;
  let t = bt - b * T;
  let scale = uniforms.scale;`;

/** Scores of query t over keys j ≤ t into `sc`, then exp(s − max) there; max and Σ out. */
const SOFTMAX = `
  let qBase = bt * D3 + h * K;
  var m = -3.402823e+38;
  for (var j = tid; j <= t; j = j + ${WORKGROUP}) {
    let kBase = (b * T + j) * D3 + D + h * K;
    var dot = 0.0;
    for (var d = 0; d < K; d = d + 1) { dot = dot + qkv[qBase + d] * qkv[kBase + d]; }
    let s = dot * scale;
    sc[j] = s;
    m = max(m, s);
  }
  let mx = reduceMax(tid, m);
  var se = 0.0;
  for (var j = tid; j <= t; j = j + ${WORKGROUP}) {
    let e = exp(sc[j] - mx);
    sc[j] = e;
    se = se + e;
  }
  let total = reduceSum(tid, se);`;

const UNIFORMS = 'T : i32, H : i32, scale : f32,';

function withArrays(program: ReturnType<typeof rowProgram>, names: string[]) {
  const user = program.getUserCode;
  const decl = names.map((n) => `var<workgroup> ${n} : array<f32, ${ATTENTION_MAX_TOKENS}>;`).join('\n');
  program.getUserCode = () => `${decl}\n${user()}`;
  program.uniforms = UNIFORMS;
  return program;
}

function uniforms(attrs: unknown) {
  const a = attrs as Record<string, number>;
  return [
    { type: 'int32' as const, data: [a.T ?? 1] },
    { type: 'int32' as const, data: [a.H ?? 1] },
    { type: 'float32' as const, data: [a.scale ?? 1] },
  ];
}

/** The FORWARD kernel (registered by registerAttentionKernels). */
const attentionForward: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const qkv = inputs.qkv as tf.TensorInfo;
  const [BT, D3] = qkv.shape as [number, number];
  const H = (attrs as Record<string, number>).H ?? 1;
  const body = `${ROW}${SOFTMAX}
for (var d = tid; d < K; d = d + ${WORKGROUP}) {
  var acc = 0.0;
  for (var j = 0; j <= t; j = j + 1) { acc = acc + sc[j] * qkv[(b * T + j) * D3 + 2 * D + h * K + d]; }
  result[bt * D + h * K + d] = acc / total;
}`;
  const program = withArrays(rowProgram('starpoCausalAttention', ['qkv'], [BT, D3 / 3], BT * H, body), [
    'sc',
  ]);
  return runProgram(backend, program, [qkv], 'float32', uniforms(attrs));
};

/** The GRAD_Q kernel (registered by registerAttentionKernels). */
const attentionGradQ: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const qkv = inputs.qkv as tf.TensorInfo;
  const [BT, D3] = qkv.shape as [number, number];
  const H = (attrs as Record<string, number>).H ?? 1;
  const K = D3 / 3 / H;
  // Output per (token, head) row: dq (K values), log-sum-exp, D.
  const body = `${ROW}${SOFTMAX}
let oBase = bt * D + h * K;
var od = 0.0;
for (var d = tid; d < K; d = d + ${WORKGROUP}) { od = od + dy[oBase + d] * o[oBase + d]; }
let Di = reduceSum(tid, od);
for (var j = tid; j <= t; j = j + ${WORKGROUP}) {
  let vBase = (b * T + j) * D3 + 2 * D + h * K;
  var dp = 0.0;
  for (var d = 0; d < K; d = d + 1) { dp = dp + dy[oBase + d] * qkv[vBase + d]; }
  sc[j] = sc[j] / total * (dp - Di);
}
workgroupBarrier();
let outBase = row * (K + 2);
for (var d = tid; d < K; d = d + ${WORKGROUP}) {
  var acc = 0.0;
  for (var j = 0; j <= t; j = j + 1) { acc = acc + sc[j] * qkv[(b * T + j) * D3 + D + h * K + d]; }
  result[outBase + d] = acc * scale;
}
if (tid == 0) {
  result[outBase + K] = mx + log(total);
  result[outBase + K + 1] = Di;
}`;
  const program = withArrays(
    rowProgram('starpoCausalAttentionGradQ', ['qkv', 'dy', 'o'], [BT * H, K + 2], BT * H, body),
    ['sc'],
  );
  const { dy, o } = inputs as Record<string, tf.TensorInfo>;
  return runProgram(
    backend,
    program,
    [qkv, dy as tf.TensorInfo, o as tf.TensorInfo],
    'float32',
    uniforms(attrs),
  );
};

/** The GRAD_QKV kernel (registered by registerAttentionKernels). */
const attentionGradQkv: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const qkv = inputs.qkv as tf.TensorInfo;
  const [BT] = qkv.shape as [number, number];
  const H = (attrs as Record<string, number>).H ?? 1;
  // This workgroup is key row j = t: every query i ≥ j that sees it.
  const body = `${ROW}
let kBase = bt * D3 + D + h * K;
let vBase = kBase + D;
for (var i = t + tid; i < T; i = i + ${WORKGROUP}) {
  let qBase = (b * T + i) * D3 + h * K;
  let oBase = (b * T + i) * D + h * K;
  let gBase = ((b * T + i) * H + h) * (K + 2);
  var dot = 0.0;
  var dp = 0.0;
  for (var d = 0; d < K; d = d + 1) {
    dot = dot + qkv[qBase + d] * qkv[kBase + d];
    dp = dp + dy[oBase + d] * qkv[vBase + d];
  }
  let p = exp(dot * scale - gq[gBase + K]);
  pr[i] = p;
  ds[i] = p * (dp - gq[gBase + K + 1]);
}
workgroupBarrier();
let myG = row * (K + 2);
for (var d = tid; d < K; d = d + ${WORKGROUP}) {
  var dk = 0.0;
  var dv = 0.0;
  for (var i = t; i < T; i = i + 1) {
    dk = dk + ds[i] * qkv[(b * T + i) * D3 + h * K + d];
    dv = dv + pr[i] * dy[(b * T + i) * D + h * K + d];
  }
  result[bt * D3 + h * K + d] = gq[myG + d];
  result[bt * D3 + D + h * K + d] = dk * scale;
  result[bt * D3 + 2 * D + h * K + d] = dv;
}`;
  const program = withArrays(
    rowProgram('starpoCausalAttentionGradQkv', ['qkv', 'dy', 'gq'], qkv.shape, BT * H, body),
    ['pr', 'ds'],
  );
  const { dy, gq } = inputs as Record<string, tf.TensorInfo>;
  return runProgram(
    backend,
    program,
    [qkv, dy as tf.TensorInfo, gq as tf.TensorInfo],
    'float32',
    uniforms(attrs),
  );
};

/** Registers the three kernels for the webgpu backend (idempotent). */
export function registerAttentionKernels(): void {
  registerOnce(FORWARD, attentionForward);
  registerOnce(GRAD_Q, attentionGradQ);
  registerOnce(GRAD_QKV, attentionGradQkv);
}

/** Whether the fused kernels take this shape (workgroup memory and one dispatch's rows). */
export function fusedAttentionFits(B: number, T: number, H: number): boolean {
  return T <= ATTENTION_MAX_TOKENS && B * T * H <= MAX_ROWS;
}

/**
 * Causal self-attention of `qkv` [B·T, 3D] (the fused q | k | v projection of B rows of T
 * tokens) with H heads: [B·T, D] in the merged-head layout, differentiable in qkv. No KV cache
 * and no key bias (training and scoring). webgpu backend only; check fusedAttentionFits first.
 * Returns a new tensor.
 */
export function fusedCausalAttention(qkv: tf.Tensor2D, B: number, T: number, H: number): tf.Tensor2D {
  registerAttentionKernels();
  if (!fusedAttentionFits(B, T, H)) throw new Error(`fusedCausalAttention: B${B} T${T} H${H} does not fit`);
  const K = qkv.shape[1] / 3 / H;
  const attrs = { T, H, scale: 1 / Math.sqrt(K) };
  const f = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [x, save] = args as [tf.Tensor, tf.GradSaveFunc];
    const value = callKernel(FORWARD, { qkv: x }, attrs);
    save([x, value]);
    return {
      value,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [xs, o] = saved as [tf.Tensor, tf.Tensor];
        const gq = callKernel(GRAD_Q, { qkv: xs, dy, o }, attrs);
        return callKernel(GRAD_QKV, { qkv: xs, dy, gq }, attrs);
      },
    };
  });
  return f(qkv) as tf.Tensor2D;
}
