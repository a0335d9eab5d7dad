// Correctness of the fused optimizer step (src/core/model/kernels/adam.ts, stepped by
// src/core/model/adam.ts) against tfjs: the one-dispatch global norm against √Σ square; weights
// after three fused Adam steps (one with a clipping scale) against tf.train.adam on the same
// gradients; the moments moved between the fused and the unfused layout mid-run; and two real policy steps of update.ts (loss, norm,
// clipping, Adam) with every fused kernel on against all of them off. webgpu backend only.
import * as tf from '@tensorflow/tfjs';
import { Adam } from '../core/model/adam.js';
import { flattenGradients, fusedGlobalNorm, setFusedKernels } from '../core/model/kernels/index.js';
import { createPolicy, disposeModel, modelVariables } from '../core/model/params.js';
import { policyStep } from '../core/rl/update.js';
import { Rng } from '../core/rng.js';
import { syntheticMinibatch } from '../workers/stepTiming.js';
import type { KernelCheckRow } from './checkRows.js';

const SHAPES = [[5, 7], [7], [3, 4, 2], [130]];
/** Per step: clipping scale the trainer would pass (1 = none). */
const SCALES = [1, 0.7, 1];
let serial = 0;

function randn(rng: Rng, shape: number[], std = 1): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return tf.tensor(
    Float32Array.from({ length: n }, () => rng.normal(0, std)),
    shape,
  );
}

async function maxDiff(a: readonly tf.Tensor[], b: readonly tf.Tensor[]): Promise<number> {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = tf.tidy(() => tf.max(tf.abs(tf.sub(a[i] as tf.Tensor, b[i] as tf.Tensor))));
    worst = Math.max(worst, (await d.data())[0] as number);
    d.dispose();
  }
  return worst;
}

/** A set of named variables with the given initial values (fresh names each call). */
function weights(init: readonly tf.Tensor[]): tf.Variable[] {
  serial++;
  // tf.variable keeps its own reference to the copy's data; the copy itself is disposed.
  return init.map((t, i) => tf.tidy(() => tf.variable(t.clone(), true, `adamCheck${serial}_${i}`)));
}

type StepKind = 'fused' | 'unfused' | 'tf';

/** Runs one optimizer per plan on its own copy of the weights; the same gradients each step. */
function runPlans(
  init: readonly tf.Tensor[],
  grads: readonly tf.Tensor[][],
  plans: readonly StepKind[][],
): tf.Variable[][] {
  return plans.map((plan) => {
    const vars = weights(init);
    const ours = new Adam({ epsilon: 1e-8 });
    const reference: tf.Optimizer = tf.train.adam(0.01, 0.9, 0.999, 1e-8);
    plan.forEach((kind, step) => {
      const scale = SCALES[step] as number;
      const g = grads[step] as tf.Tensor[];
      const named: tf.NamedTensorMap = Object.fromEntries(vars.map((v, i) => [v.name, g[i] as tf.Tensor]));
      if (kind === 'tf') {
        const scaled = tf.tidy(() =>
          Object.fromEntries(Object.entries(named).map(([k, t]) => [k, tf.mul(t, scale)])),
        );
        reference.applyGradients(scaled);
        tf.dispose(Object.values(scaled));
        return;
      }
      setFusedKernels(kind === 'fused');
      ours.step(named, 0.01, scale);
      setFusedKernels(true);
    });
    ours.dispose();
    reference.dispose();
    return vars;
  });
}

/** Global norm, three Adam steps, and the hand-over in both directions. */
async function checkAdam(rng: Rng, tol: number): Promise<KernelCheckRow[]> {
  const init = SHAPES.map((s) => randn(rng, s, 0.5));
  const grads = SCALES.map(() => SHAPES.map((s) => randn(rng, s)));
  const [ref, fused, toUnfused, toFused] = runPlans(init, grads, [
    ['tf', 'tf', 'tf'],
    ['fused', 'fused', 'fused'],
    ['fused', 'fused', 'unfused'],
    ['unfused', 'fused', 'fused'],
  ]) as [tf.Variable[], tf.Variable[], tf.Variable[], tf.Variable[]];
  const g0 = grads[0] as tf.Tensor[];
  const flat = flattenGradients(Object.fromEntries(g0.map((g, i) => [`g${i}`, g])));
  const norm = fusedGlobalNorm(flat);
  const refNorm = tf.tidy(() => tf.sqrt(tf.addN(g0.map((g) => tf.sum(tf.square(g))))));
  const normDiff = await maxDiff([norm], [refNorm]);
  // The steps really moved the weights (lr 0.01, 3 steps), so agreement is not vacuous.
  const moved = await maxDiff(ref, init);
  const row = (name: string, valueDiff: number): KernelCheckRow => ({
    name,
    valueDiff,
    gradDiff: null,
    ok: valueDiff <= tol && moved > 1e-3,
  });
  const rows = [
    row('global gradient norm (flat, one dispatch)', normDiff),
    row('Adam: 3 fused steps (one clipped) vs tf.train.adam, weights', await maxDiff(fused, ref)),
    row('Adam hand-over fused → unfused, weights after 3 steps', await maxDiff(toUnfused, ref)),
    row('Adam hand-over unfused → fused, weights after 3 steps', await maxDiff(toFused, ref)),
  ];
  tf.dispose([flat, norm, refNorm, ...init, ...grads.flat(), ...ref, ...fused, ...toUnfused, ...toFused]);
  return rows;
}

/** Two policy steps of update.ts (loss, norm, clip, Adam) with fused kernels on and off. */
async function checkPolicySteps(rng: Rng, tol: number): Promise<KernelCheckRow> {
  const config = { vocabSize: 37, dModel: 32, nLayers: 2, nHeads: 4, context: 24, mlpRatio: 4 };
  const mb = syntheticMinibatch(rng, 3, 12, config.vocabSize);
  const settings = {
    lr: 0.003,
    clipLow: 0.2,
    clipHigh: 0.28,
    entropyCoef: 0.01,
    klLossCoef: 0.05,
    klEstimator: 'k3' as const,
    gradClip: 0.05,
  };
  const run = async (fusedOn: boolean) => {
    setFusedKernels(fusedOn);
    const policy = createPolicy(config, new Rng(11));
    const opt = new Adam({ epsilon: 1e-8 });
    const norms: number[] = [];
    for (let i = 0; i < 2; i++) norms.push((await policyStep(policy, opt, mb, settings)).gradNorm);
    opt.dispose();
    return { policy, norms };
  };
  try {
    const on = await run(true);
    const off = await run(false);
    const d = await maxDiff(modelVariables(on.policy), modelVariables(off.policy));
    const normDiff = Math.max(
      ...on.norms.map((n, i) => Math.abs(n - (off.norms[i] as number)) / Math.max(1, n)),
    );
    disposeModel(on.policy);
    disposeModel(off.policy);
    return {
      name: '2 policy steps of update.ts (clipped), all weights; gradient norms',
      valueDiff: d,
      gradDiff: normDiff,
      ok: d <= tol && normDiff <= tol,
    };
  } finally {
    setFusedKernels(true);
  }
}

/** Every optimizer check, for checkKernels. Leaves no tensors behind. */
export async function checkOptimizer(rng: Rng, tol: number): Promise<KernelCheckRow[]> {
  return [...(await checkAdam(rng, tol)), await checkPolicySteps(rng, tol)];
}
