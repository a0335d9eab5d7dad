// Fused log-softmax + gather of the target token's log-prob, with the next-token entropy in the
// same pass, for the webgpu backend: what scoring.ts policyLogProbs computes with logSoftmax,
// oneHot, mul, sum, exp, mul, sum and neg (~14 dispatches forward, ~20 backward) becomes one
// dispatch each way. Per row of logits l [V] with target t:
//   lse = max + log Σ exp(l − max),  logp = l_t − lse,  H = −Σ p·(l − lse),
//   ∂logp/∂l_j = δ_jt − p_j,  ∂H/∂l_j = −p_j·(log p_j + H).
// N = rows (B·(T−1)), V = vocabulary.
import * as tf from '@tensorflow/tfjs';
import { callKernel, registerOnce, rowProgram, runProgram, WORKGROUP } from './program.js';

const FORWARD = 'StarpoTokenLogProbs';
const BACKWARD = 'StarpoTokenLogProbsGrad';

/** max, Σ e, Σ e·(l − max) of the row, with e = exp(l − max). */
const ROW_SUMS = `
  let row = index / ${WORKGROUP};
  let tid = i32(localId.x);
  let V = uniforms.logitsShape[1];
  let base = row * V;
  var m = -3.402823e+38;
  for (var j = tid; j < V; j = j + ${WORKGROUP}) { m = max(m, logits[base + j]); }
  let mx = reduceMax(tid, m);
  var s = 0.0;
  var sl = 0.0;
  for (var j = tid; j < V; j = j + ${WORKGROUP}) {
    let z = logits[base + j] - mx;
    let e = exp(z);
    s = s + e;
    sl = sl + e * z;
  }
  let total = reduceSum(tid, s);
  let logS = log(total);
  let H = logS - reduceSum(tid, sl) / total;
  let t = targets[row];`;

/** Registers the two kernels for the webgpu backend (idempotent). */
export function registerTokenLogProbKernels(): void {
  registerOnce(FORWARD, ({ inputs, backend }) => {
    const logits = inputs.logits as tf.TensorInfo;
    const [N] = logits.shape as [number, number];
    const body = `${ROW_SUMS}
  if (tid == 0) {
    result[row * 2] = logits[base + t] - mx - logS;
    result[row * 2 + 1] = H;
  }`;
    const program = rowProgram('starpoTokenLogProbs', ['logits', 'targets'], [N, 2], N, body);
    return runProgram(backend, program, [logits, inputs.targets as tf.TensorInfo]);
  });
  registerOnce(BACKWARD, ({ inputs, backend }) => {
    const logits = inputs.logits as tf.TensorInfo;
    const [N] = logits.shape as [number, number];
    const body = `${ROW_SUMS}
  let g1 = dy[row * 2];
  let g2 = dy[row * 2 + 1];
  for (var j = tid; j < V; j = j + ${WORKGROUP}) {
    let lp = logits[base + j] - mx - logS;
    let p = exp(lp);
    var d = -g1 * p - g2 * p * (lp + H);
    if (j == t) { d = d + g1; }
    result[base + j] = d;
  }`;
    const program = rowProgram('starpoTokenLogProbsGrad', ['logits', 'targets', 'dy'], logits.shape, N, body);
    return runProgram(backend, program, [
      logits,
      inputs.targets as tf.TensorInfo,
      inputs.dy as tf.TensorInfo,
    ]);
  });
}

/** [N, 2] (log-prob of the target, entropy) per row of `logits` [N, V]; differentiable in logits. */
function logProbPairs(logits: tf.Tensor2D, targets: tf.Tensor1D): tf.Tensor2D {
  const f = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [lg, save] = args as [tf.Tensor, tf.GradSaveFunc];
    // The targets are no input of the op (no gradient), so they are saved to outlive the caller's tidy.
    save([lg, targets]);
    return {
      value: callKernel(FORWARD, { logits: lg, targets }),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [l, t] = saved as [tf.Tensor, tf.Tensor];
        return callKernel(BACKWARD, { logits: l, targets: t, dy });
      },
    };
  });
  return f(logits) as tf.Tensor2D;
}

/**
 * Log-probs of `targets` [B, T] (int32) under `logits` [B, T, V] and the entropies of the
 * distributions, each [B, T] — the same numbers as logSoftmax + oneHot·sum, differentiable in
 * the logits. webgpu backend only. Returns new tensors; run inside tf.tidy.
 */
export function fusedTokenLogProbs(
  logits: tf.Tensor3D,
  targets: tf.Tensor2D,
): { logp: tf.Tensor2D; entropy: tf.Tensor2D } {
  registerTokenLogProbKernels();
  const [B, T, V] = logits.shape;
  const pairs = logProbPairs(
    logits.reshape([B * T, V]),
    targets.reshape([B * T]).cast('int32') as tf.Tensor1D,
  );
  return {
    logp: pairs.slice([0, 0], [B * T, 1]).reshape([B, T]),
    entropy: pairs.slice([0, 1], [B * T, 1]).reshape([B, T]),
  };
}
