// The measurements that need the webgpu backend, run where it is active (in Node a child
// process with the `webgpu` package, see nodeGpu.ts): fused-kernel correctness, dispatches per
// training step and per decode step with and without the fused kernels, and step times. On a
// software adapter (SwiftShader) the times are labelled correctness-only by the caller.
import * as tf from '@tensorflow/tfjs';
import type { ModelSize } from '../core/model/config.js';
import { setFusedKernels } from '../core/model/kernels/index.js';
import { disposeModel, type Model } from '../core/model/params.js';
import { forward, lmLogits, MASKED } from '../core/model/transformer.js';
import { Rng } from '../core/rng.js';
import {
  type StepShape,
  stepModel,
  syntheticMinibatch,
  timeSteps,
  trainingStep,
} from '../workers/stepTiming.js';
import { countDispatches } from './dispatch.js';
import { checkKernels } from './kernelCheck.js';
import { type MatmulRate, measureMatmul } from './roofline.js';
import type { DispatchRow, KernelCheckResult, ModelRow } from './schema.js';

export interface GpuPart {
  kernelCheck: KernelCheckResult;
  dispatch: DispatchRow[];
  model: ModelRow[];
  /** The 2-D matrix-product rate on this adapter (the roofline's roof; software: not a target). */
  matmul?: MatmulRate;
}

/** Dispatches of one cached decode step (prefill of `prompt` tokens first) for `rows` rows. */
async function decodeDispatches(
  policy: Model,
  rows: number,
  prompt: number,
): Promise<DispatchRow['topFused'] & object> {
  const rng = new Rng(5);
  const ids = Int32Array.from({ length: rows * prompt }, () => rng.int(1, policy.config.vocabSize));
  const cache = tf.tidy(() => {
    const out = forward(policy, {
      tokens: tf.tensor2d(ids, [rows, prompt], 'int32'),
      keyBias: tf.zeros([rows, 1, 1, prompt]),
      embed: 'gather',
    });
    return { keys: out.cache.keys.map((k) => tf.keep(k)), values: out.cache.values.map((v) => tf.keep(v)) };
  });
  const step = async () => {
    const logits = tf.tidy(() => {
      const bias = new Float32Array(rows * (prompt + 1));
      bias[0] = MASKED;
      const out = forward(policy, {
        tokens: tf.tensor2d(new Int32Array(rows).fill(3), [rows, 1], 'int32'),
        keyBias: tf.tensor4d(bias, [rows, 1, 1, prompt + 1]),
        cache,
        embed: 'gather',
      });
      return lmLogits(policy, out.hidden);
    });
    await logits.data();
    logits.dispose();
  };
  await step(); // compile
  const c = await countDispatches(step);
  tf.dispose([...cache.keys, ...cache.values]);
  return { total: c.dispatches, ...c.byName };
}

/** Unfused and fused dispatch counts of the training step and the decode step of `size`. */
async function dispatchRows(size: ModelSize, shape: StepShape): Promise<DispatchRow[]> {
  const rng = new Rng(9);
  const mb = syntheticMinibatch(rng, shape.rows, shape.T, shape.vocab);
  const count = async (fused: boolean) => {
    setFusedKernels(fused);
    const { policy, optimizer } = stepModel(size, shape);
    try {
      await trainingStep(policy, optimizer, mb); // compile and allocate first
      const train = await countDispatches(() => trainingStep(policy, optimizer, mb));
      const decode = await decodeDispatches(policy, shape.rows, Math.min(32, shape.T - 1));
      return { train, decode };
    } finally {
      optimizer.dispose();
      disposeModel(policy);
      setFusedKernels(true);
    }
  };
  const off = await count(false);
  const on = await count(true);
  const reduction = (a: number, b: number) => (b > 0 ? Math.round((100 * a) / b) / 100 : null);
  const { total: decodeOff = 0, ...decodeOffTop } = off.decode as Record<string, number>;
  const { total: decodeOn = 0, ...decodeOnTop } = on.decode as Record<string, number>;
  return [
    {
      backend: 'webgpu',
      size,
      kind: 'trainingStep',
      rows: shape.rows,
      T: shape.T,
      unfused: off.train.dispatches,
      fused: on.train.dispatches,
      reduction: reduction(off.train.dispatches, on.train.dispatches),
      topUnfused: off.train.byName,
      topFused: on.train.byName,
    },
    {
      backend: 'webgpu',
      size,
      kind: 'decodeStep',
      rows: shape.rows,
      T: Math.min(32, shape.T - 1) + 1,
      unfused: decodeOff,
      fused: decodeOn,
      reduction: reduction(decodeOff, decodeOn),
      topUnfused: decodeOffTop,
      topFused: decodeOnTop,
    },
  ];
}

/** Everything measured on the active webgpu backend for `sizes`; `onPartial` after each part. */
export async function runGpuPart(
  sizes: readonly ModelSize[],
  shape: StepShape,
  reps: number,
  log: (line: string) => void = () => {},
  onPartial: (part: GpuPart) => void = () => {},
): Promise<GpuPart> {
  if (tf.getBackend() !== 'webgpu') throw new Error(`runGpuPart: backend is ${tf.getBackend()}`);
  const check = await checkKernels();
  log(`webgpu: kernel check ${check.ok ? 'ok' : 'FAILED'}`);
  const kernelCheck: KernelCheckResult = {
    ran: true,
    ok: check.ok,
    tolerance: check.tolerance,
    rows: check.rows,
    reason: '',
  };
  const dispatch: DispatchRow[] = [];
  const model: ModelRow[] = [];
  const matmul = await measureMatmul(undefined, 3, 3);
  log(`webgpu: matrix-product rate ${matmul.gflops.toFixed(1)} GFLOP/s`);
  for (const size of sizes) {
    dispatch.push(...(await dispatchRows(size, shape)));
    log(`webgpu: ${size} dispatches counted`);
    onPartial({ kernelCheck, dispatch, model, matmul });
    // Step times on a software adapter only show the path works: the first size is enough.
    if (size !== sizes[0]) continue;
    for (const fused of [false, true]) {
      setFusedKernels(fused);
      const t = await timeSteps(size, shape, reps);
      model.push({
        backend: 'webgpu',
        size,
        rows: shape.rows,
        T: shape.T,
        scoreRows: shape.scoreRows,
        fused,
        ...t,
      });
    }
    setFusedKernels(true);
    log(`webgpu: ${size} timed`);
    onPartial({ kernelCheck, dispatch, model, matmul });
  }
  return { kernelCheck, dispatch, model, matmul };
}
