// The roofline of the benchmark (issue 22): on each backend, the rate of a plain 2-D matrix
// product measured in the same run, and the model's training step, scoring and decoding as
// GFLOP/s and as a share of that rate — how far each phase is from what the backend can do.
//
// FLOPs are those of the matrix products only, 2 per multiply-add (element-wise work — LayerNorm,
// GELU, softmax, Adam — is left out: it is a few percent of the products at these widths, and
// counting it would need a per-backend cost model). With N = B·T rows, D the width, F = 4·D the
// MLP width, S keys (S = T without a cache), V the vocabulary and L layers, one forward pass is
//   embedding  0                  (a row gather, its gradient a scatter-add: no product)
//   per layer  8·N·D² + 4·N·D·F   (q/k/v 6·N·D², output 2·N·D², MLP 2·2·N·D·F)
//            + 4·B·T·S·D          (scores q·kᵀ and weights·v, all heads, the masked half included)
//   LM head    2·M·D·V            (M rows of logits: B·(T−1) when scoring, B when decoding)
// A training step is 3× its forward pass (the backward pass takes both operands' gradients of
// every product, each as many FLOPs as the product: core/model/matmul.ts does both). Scoring is
// one forward pass. Decoding n tokens after an L-token prompt is one prefill (T = S = L, LM head
// on B rows) and n − 1 cached steps (T = 1, S = L + i, i = 1…n−1).
import * as tf from '@tensorflow/tfjs';
import type { ModelConfig, ModelSize } from '../core/model/config.js';

/** What a forward pass computes besides the trunk. */
export interface ForwardShape {
  /** Rows B. */
  B: number;
  /** New tokens per row. */
  T: number;
  /** Keys each new token attends (cached + new; T without a cache). */
  S: number;
  /** Rows of LM-head logits (0: no LM head). */
  lmRows: number;
  /** Rows of value-head outputs (critic; 0 for a policy). */
  valueRows?: number;
}

/** Matrix-product FLOPs of one forward pass (formula at the top of this file). */
export function forwardFlops(c: ModelConfig, s: ForwardShape): number {
  const D = c.dModel;
  const F = c.mlpRatio * D;
  const N = s.B * s.T;
  const perLayer = 8 * N * D * D + 4 * N * D * F + 4 * s.B * s.T * s.S * D;
  return c.nLayers * perLayer + 2 * s.lmRows * D * c.vocabSize + 2 * (s.valueRows ?? 0) * D;
}

/** One policy training step on `rows` × `T` tokens: forward and backward, 3× forward. */
export function trainingStepFlops(c: ModelConfig, rows: number, T: number): number {
  return 3 * forwardFlops(c, { B: rows, T, S: T, lmRows: rows * (T - 1) });
}

/** One scoring pass (log-probs of every next token) over `rows` × `T` tokens. */
export function scoringFlops(c: ModelConfig, rows: number, T: number): number {
  return forwardFlops(c, { B: rows, T, S: T, lmRows: rows * (T - 1) });
}

/** Decoding `newTokens` per row after a `prompt`-token prompt, with the KV cache. */
export function decodingFlops(c: ModelConfig, rows: number, prompt: number, newTokens: number): number {
  let total = forwardFlops(c, { B: rows, T: prompt, S: prompt, lmRows: rows });
  for (let i = 1; i < newTokens; i++)
    total += forwardFlops(c, { B: rows, T: 1, S: prompt + i, lmRows: rows });
  return total;
}

/** One measured product shape. */
export interface MatmulShapeRate {
  m: number;
  k: number;
  n: number;
  /** Median time of one product (ms). */
  ms: number;
  gflops: number;
}

export interface MatmulRate {
  shapes: MatmulShapeRate[];
  /** The best shape's rate: the roof the phases are measured against. */
  gflops: number;
}

/** Square and model-like shapes ([B·T, D]·[D, 4D] and back) of the nano and micro models. */
export const MATMUL_SHAPES: readonly (readonly [number, number, number])[] = [
  [256, 256, 256],
  [512, 512, 512],
  [1024, 64, 256],
  [1024, 256, 64],
];

/**
 * The rate of tf.matMul on 2-D float32 operands on the active backend: per shape, `reps` timed
 * rounds of `perRound` products (the last one read back with `await data()`), median round.
 */
export async function measureMatmul(
  shapes: readonly (readonly [number, number, number])[] = MATMUL_SHAPES,
  reps = 5,
  perRound = 3,
): Promise<MatmulRate> {
  const out: MatmulShapeRate[] = [];
  for (const [m, k, n] of shapes) {
    const a = tf.randomNormal([m, k], 0, 1, 'float32', 1) as tf.Tensor2D;
    const b = tf.randomNormal([k, n], 0, 1, 'float32', 2) as tf.Tensor2D;
    const round = async (): Promise<number> => {
      const t0 = performance.now();
      for (let i = 0; i < perRound; i++) {
        const c = tf.matMul(a, b);
        if (i === perRound - 1) await c.data();
        c.dispose();
      }
      return (performance.now() - t0) / perRound;
    };
    try {
      await round(); // warm-up: kernel set-up, buffers, shader compilation on webgpu
      const times: number[] = [];
      for (let r = 0; r < reps; r++) times.push(await round());
      times.sort((x, y) => x - y);
      const ms = times[Math.floor((times.length - 1) / 2)] as number;
      out.push({ m, k, n, ms, gflops: ms > 0 ? (2 * m * k * n) / (ms * 1e6) : 0 });
    } finally {
      a.dispose();
      b.dispose();
    }
  }
  return { shapes: out, gflops: Math.max(0, ...out.map((s) => s.gflops)) };
}

/** One phase of the model on one backend, against that backend's matrix rate. */
export interface RooflinePhase {
  phase: 'trainingStep' | 'scoring' | 'decoding';
  size: ModelSize;
  /** e.g. "8×128" (training, scoring) or "64 rows, 64+16 tokens" (decoding). */
  shape: string;
  flops: number;
  ms: number;
  gflops: number;
  /** gflops / the backend's matrix rate. */
  share: number;
}

/** A phase's rate and share from its FLOPs and time. */
export function phaseRate(
  phase: RooflinePhase['phase'],
  size: ModelSize,
  shape: string,
  flops: number,
  ms: number,
  roof: number,
): RooflinePhase {
  const gflops = ms > 0 ? flops / (ms * 1e6) : 0;
  const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
  return {
    phase,
    size,
    shape,
    flops,
    ms,
    gflops: round(gflops, 2),
    share: roof > 0 ? round(gflops / roof, 3) : 0,
  };
}

/** What the roofline is built from: the run's model and rollout rows and matrix rates. */
export interface RooflineInputs {
  vocab: number;
  matmul: { backend: 'cpu' | 'wasm' | 'webgpu'; label: string; software: boolean; rate: MatmulRate }[];
  model: readonly {
    backend: string;
    size: ModelSize;
    rows: number;
    T: number;
    scoreRows: number;
    fused: boolean;
    stepMs: number;
    scoreMs: number;
  }[];
  rollout: readonly {
    backend: string;
    size: ModelSize;
    rows: number;
    promptTokens: number;
    newTokens: number;
    cachedTokensPerSec: number;
  }[];
}

export interface RooflineRow {
  backend: 'cpu' | 'wasm' | 'webgpu';
  label: string;
  /** A software adapter (SwiftShader): correctness only, never a target. */
  software: boolean;
  matmul: MatmulRate;
  phases: RooflinePhase[];
}

/** Per backend with a matrix rate: its training step, scoring and decoding against that rate. */
export function rooflineRows(x: RooflineInputs, configOf: (size: ModelSize) => ModelConfig): RooflineRow[] {
  return x.matmul.map(({ backend, label, software, rate }) => {
    const roof = rate.gflops;
    const phases: RooflinePhase[] = [];
    // webgpu rows come with and without the fused kernels: the fused path is what runs.
    const models = x.model.filter((m) => m.backend === backend && (backend !== 'webgpu' || m.fused));
    for (const m of models) {
      const c = configOf(m.size);
      phases.push(
        phaseRate(
          'trainingStep',
          m.size,
          `${m.rows}×${m.T}`,
          trainingStepFlops(c, m.rows, m.T),
          m.stepMs,
          roof,
        ),
      );
      if (m.scoreMs > 0)
        phases.push(
          phaseRate(
            'scoring',
            m.size,
            `${m.scoreRows}×${m.T}`,
            scoringFlops(c, m.scoreRows, m.T),
            m.scoreMs,
            roof,
          ),
        );
    }
    for (const r of x.rollout.filter((r) => r.backend === backend)) {
      const c = configOf(r.size);
      const tokens = r.rows * r.newTokens;
      const ms = r.cachedTokensPerSec > 0 ? (1000 * tokens) / r.cachedTokensPerSec : 0;
      phases.push(
        phaseRate(
          'decoding',
          r.size,
          `${r.rows} rows, ${r.promptTokens}+${r.newTokens} tokens`,
          decodingFlops(c, r.rows, r.promptTokens, r.newTokens),
          ms,
          roof,
        ),
      );
    }
    return { backend, label, software, matmul: rate, phases };
  });
}
