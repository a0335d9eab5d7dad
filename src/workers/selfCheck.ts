// Cross-checks backends (device numerics can be wrong): the
// same 1-layer transformer, initialised from the same seed, is trained for a few Adam steps on
// a fixed batch on each backend, and the per-step losses are compared. Leaves tfjs on the
// backend it started on.
import * as tf from '@tensorflow/tfjs';
import { Adam } from '../core/model/adam.js';
import { modelConfig } from '../core/model/config.js';
import { createPolicy, disposeModel, modelVariables } from '../core/model/params.js';
import { policyLogProbs } from '../core/model/scoring.js';
import { Rng } from '../core/rng.js';
import { type BackendPreference, chooseBackend, type WasmPaths } from './backend.js';
import type { SelfCheckResult } from './protocol.js';
import { warmupSettled } from './startup.js';

const VOCAB = 32;
const B = 4;
const T = 16;

/** Trains a 1-layer transformer for `steps` Adam steps on the current backend; returns the losses. */
export async function trainProbe(steps: number, seed: number): Promise<number[]> {
  const rng = new Rng(seed);
  const config = { ...modelConfig('nano', VOCAB, T), nLayers: 1 };
  const model = createPolicy(config, rng.fork('weights'));
  const data = rng.fork('data');
  const tokens = tf.tensor2d(
    Array.from({ length: B }, () => Array.from({ length: T }, () => data.int(0, VOCAB))),
    [B, T],
    'int32',
  );
  const optimizer = new Adam({ epsilon: 1e-8 });
  const losses: number[] = [];
  try {
    for (let s = 0; s < steps; s++) {
      const loss = optimizer.minimize(
        () => {
          const { logp, entropy } = policyLogProbs(model, tokens);
          entropy.dispose();
          return tf.neg(tf.mean(logp)) as tf.Scalar;
        },
        modelVariables(model),
        1e-2,
      );
      losses.push((await loss.data())[0] as number);
      loss.dispose();
    }
  } finally {
    optimizer.dispose();
    tokens.dispose();
    disposeModel(model);
  }
  return losses;
}

/** Runs the probe on each backend in turn and reports the largest loss difference. */
export async function runSelfCheck(
  backends: BackendPreference[],
  steps: number,
  seed: number,
  wasmPaths?: WasmPaths,
): Promise<{ results: SelfCheckResult[]; maxAbsDiff: number }> {
  await warmupSettled(); // WebGPU pipelines still compiling cannot be dispatched
  const original = tf.getBackend();
  const results: SelfCheckResult[] = [];
  try {
    for (const b of backends) {
      const report = await chooseBackend(b, wasmPaths);
      if (report.backend !== b && b !== 'auto') {
        throw new Error(
          `selfCheck: could not start ${b}: ${report.fallbacks.map((f) => f.reason).join('; ')}`,
        );
      }
      const t0 = performance.now();
      const losses = await trainProbe(steps, seed);
      results.push({ backend: report.backend, losses, ms: performance.now() - t0 });
    }
  } finally {
    if (original && tf.getBackend() !== original) await tf.setBackend(original);
  }
  let maxAbsDiff = 0;
  const base = results[0]?.losses ?? [];
  for (const r of results.slice(1)) {
    r.losses.forEach((l, i) => {
      maxAbsDiff = Math.max(maxAbsDiff, Math.abs(l - (base[i] ?? Number.NaN)));
    });
  }
  return { results, maxAbsDiff };
}
