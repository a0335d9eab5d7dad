// Shader warm-up for the webgpu backend: the first training
// step compiles ~90 pipelines one after another (seconds, UI blocked). Here one training step
// (policy log-probs, gradients, global norm, Adam) and one prefill + cached decode step of a
// throwaway model run with WEBGPU_ENGINE_COMPILE_ONLY, which creates every pipeline with
// createComputePipelineAsync and records nothing; we then await them, reporting progress, and
// hand them to the backend with checkCompileCompletionAsync (tfjs PR #7191). Shapes should be
// the run's (shader keys include ranks and some sizes); anything missed compiles on first use.
import * as tf from '@tensorflow/tfjs';
import { now } from '../clock.js';
import { Rng } from '../rng.js';
import { Adam } from './adam.js';
import type { ModelConfig } from './config.js';
import { flattenGradients, fusedGlobalNorm } from './kernels/adam.js';
import { createPolicy, disposeModel, modelVariables } from './params.js';
import { policyLogProbs } from './scoring.js';
import { forward, lmLogits } from './transformer.js';

export interface CompileProgress {
  /** Pipelines compiled so far. */
  done: number;
  /** Pipelines requested by the warm-up. */
  total: number;
}

export interface PrecompileShape {
  /** Rows and padded length of one optimizer step. */
  rows: number;
  T: number;
  /** Rows and prompt length of one decode batch. */
  decodeRows: number;
  promptTokens: number;
}

interface CompilingBackend {
  pipelineCache: Record<string, unknown>;
  checkCompileCompletionAsync(): Promise<void>;
}

/** Records (without running) the kernels of one training step and one decode step. */
function recordWarmup(config: ModelConfig, shape: PrecompileShape): void {
  const policy = createPolicy(config, new Rng(0).fork('warm-up'));
  const optimizer = new Adam({ epsilon: 1e-8 });
  try {
    tf.tidy(() => {
      const tokens = tf.zeros([shape.rows, shape.T], 'int32') as tf.Tensor2D;
      const { grads } = tf.variableGrads(() => {
        const { logp, entropy } = policyLogProbs(policy, tokens);
        return logp.mean().add(entropy.mean()) as tf.Scalar;
      }, modelVariables(policy));
      if (optimizer.fused) {
        // The fused path of update.ts: flat gradients, one-dispatch norm, fused Adam.
        const flat = flattenGradients(grads);
        fusedGlobalNorm(flat);
        optimizer.step(grads, 1e-4, 0.5, flat);
      } else {
        // Pairwise adds: an addN of every gradient needs more storage buffers than one stage may bind.
        tf.sqrt(
          Object.values(grads).reduce((acc: tf.Tensor, g) => acc.add(tf.sum(tf.square(g))), tf.scalar(0)),
        );
        optimizer.step(grads, 1e-4, 0.5);
      }
      const B = shape.decodeRows;
      const L = shape.promptTokens;
      const first = forward(policy, {
        tokens: tf.zeros([B, L], 'int32') as tf.Tensor2D,
        positions: tf.zeros([B, L], 'int32') as tf.Tensor2D,
        keyBias: tf.zeros([B, 1, 1, L]) as tf.Tensor4D,
        embed: 'gather',
      });
      const next = forward(policy, {
        tokens: tf.zeros([B, 1], 'int32') as tf.Tensor2D,
        positions: tf.zeros([B, 1], 'int32') as tf.Tensor2D,
        keyBias: tf.zeros([B, 1, 1, L + 1]) as tf.Tensor4D,
        cache: first.cache,
        embed: 'gather',
      });
      tf.logSoftmax(lmLogits(policy, next.hidden).reshape([B, -1]));
    });
  } finally {
    optimizer.dispose();
    disposeModel(policy);
  }
}

/**
 * Compiles the pipelines a run of `config` needs before its first step, in parallel, calling
 * `onProgress` as each finishes. No-op (0 pipelines) unless the active backend is webgpu.
 * Resolves to the number of new pipelines and the milliseconds spent.
 */
export async function precompileShaders(
  config: ModelConfig,
  shape: PrecompileShape,
  onProgress: (p: CompileProgress) => void = () => {},
): Promise<{ pipelines: number; ms: number }> {
  if (tf.getBackend() !== 'webgpu') return { pipelines: 0, ms: 0 };
  const t0 = now();
  const backend = tf.backend() as unknown as CompilingBackend;
  const before = new Set(Object.keys(backend.pipelineCache));
  tf.env().set('WEBGPU_ENGINE_COMPILE_ONLY', true);
  try {
    recordWarmup(config, shape);
  } finally {
    tf.env().set('WEBGPU_ENGINE_COMPILE_ONLY', false);
  }
  const pending = Object.entries(backend.pipelineCache).filter(([key]) => !before.has(key));
  const total = pending.length;
  let done = 0;
  onProgress({ done, total });
  await Promise.all(
    pending.map(([, p]) =>
      Promise.resolve(p).then(() => {
        done++;
        onProgress({ done, total });
      }),
    ),
  );
  await backend.checkCompileCompletionAsync();
  return { pipelines: total, ms: now() - t0 };
}
