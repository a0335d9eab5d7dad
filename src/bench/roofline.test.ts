// The roofline's FLOP counts against products written out by hand for a tiny shape, the share
// arithmetic, and the schema of the bench's `roofline` section. No timing is asserted.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../core/model/config.js';
import {
  decodingFlops,
  forwardFlops,
  measureMatmul,
  phaseRate,
  rooflineRows,
  scoringFlops,
  trainingStepFlops,
} from './roofline.js';
import { rooflineSection } from './schema.js';

// V = 10, D = 4, one layer, F = 16; B = 2 rows of T = 3 tokens.
const c: ModelConfig = { vocabSize: 10, dModel: 4, nLayers: 1, nHeads: 2, context: 8, mlpRatio: 4 };
/** 2·m·k·n for an [m, k]·[k, n] product. */
const mm = (m: number, k: number, n: number) => 2 * m * k * n;

describe('roofline FLOP counts (by hand, V=10 D=4 L=1 F=16, B=2 T=3)', () => {
  // The trunk on N = 6 rows, keys S = 3: q/k/v, output, MLP up and down, and per row and head
  // (2 × 2 of them, head width 2) scores [3, 2]·[2, 3] and weights·values [3, 3]·[3, 2].
  const trunk = mm(6, 4, 12) + mm(6, 4, 4) + mm(6, 4, 16) + mm(6, 16, 4) + 4 * (mm(3, 2, 3) + mm(3, 3, 2));

  it('counts the trunk and the LM head of a forward pass (the embedding is a gather: no product)', () => {
    expect(trunk).toBe(2592);
    const head = mm(4, 4, 10); // logits of B·(T−1) = 4 positions
    expect(forwardFlops(c, { B: 2, T: 3, S: 3, lmRows: 0 })).toBe(trunk);
    expect(forwardFlops(c, { B: 2, T: 3, S: 3, lmRows: 4 })).toBe(trunk + head);
    expect(forwardFlops(c, { B: 2, T: 3, S: 3, lmRows: 0, valueRows: 6 })).toBe(trunk + mm(6, 4, 1));
  });

  it('a training step is three forward passes; scoring is one', () => {
    const forward = trunk + mm(4, 4, 10);
    expect(trainingStepFlops(c, 2, 3)).toBe(3 * forward);
    expect(trainingStepFlops(c, 2, 3)).toBe(8736);
    expect(scoringFlops(c, 2, 3)).toBe(trunk + mm(4, 4, 10));
    expect(scoringFlops(c, 2, 3)).toBe(2912);
  });

  it('decoding is the prefill plus one cached step per further token', () => {
    const prefill = trunk + mm(2, 4, 10); // LM head on the last column only
    // One new token per row attending S = 4 keys: N = 2 rows through the trunk.
    const step =
      mm(2, 4, 12) +
      mm(2, 4, 4) +
      mm(2, 4, 16) +
      mm(2, 16, 4) +
      4 * (mm(1, 2, 4) + mm(1, 4, 2)) +
      mm(2, 4, 10);
    expect(decodingFlops(c, 2, 3, 1)).toBe(prefill);
    expect(decodingFlops(c, 2, 3, 2)).toBe(prefill + step);
    expect(decodingFlops(c, 2, 3, 2)).toBe(3808);
  });
});

describe('roofline rows and schema', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('measures a matrix rate and expresses each phase as GFLOP/s and a share of it', async () => {
    const rate = await measureMatmul([[8, 8, 8]], 1, 1);
    expect(rate.shapes).toHaveLength(1);
    expect(rate.shapes[0]).toMatchObject({ m: 8, k: 8, n: 8 });
    expect(rate.gflops).toBeGreaterThan(0);

    const roof = { shapes: rate.shapes, gflops: 10 };
    const rows = rooflineRows(
      {
        vocab: 10,
        matmul: [{ backend: 'wasm', label: 'WASM (SIMD)', software: false, rate: roof }],
        model: [
          {
            backend: 'wasm',
            size: 'nano',
            rows: 2,
            T: 3,
            scoreRows: 2,
            fused: false,
            stepMs: 0.001,
            scoreMs: 0,
          },
          { backend: 'cpu', size: 'nano', rows: 2, T: 3, scoreRows: 2, fused: false, stepMs: 1, scoreMs: 1 },
        ],
        rollout: [
          { backend: 'wasm', size: 'nano', rows: 2, promptTokens: 3, newTokens: 2, cachedTokensPerSec: 4000 },
        ],
      },
      () => c,
    );
    expect(rows).toHaveLength(1);
    const [train, decode] = rows[0]?.phases ?? [];
    // 8,736 FLOPs in 1 µs = 8.736 GFLOP/s, 0.874 of a 10 GFLOP/s roof; no scoring row (0 ms).
    expect(train).toMatchObject({
      phase: 'trainingStep',
      shape: '2×3',
      flops: 8736,
      gflops: 8.74,
      share: 0.874,
    });
    // 4 tokens at 4,000 tokens/s = 1 ms for 3,808 FLOPs.
    expect(decode).toMatchObject({ phase: 'decoding', flops: 3808, ms: 1, gflops: 0, share: 0 });
    expect(phaseRate('decoding', 'nano', '', 3808e3, 1, 10)).toMatchObject({ gflops: 3.81, share: 0.381 });

    const section = rooflineSection.parse({ formula: 'matrix products only', rows });
    expect(section.rows[0]?.matmul.gflops).toBe(10);
    expect(() => rooflineSection.parse({ formula: 'x', rows: [{ ...rows[0], software: 'no' }] })).toThrow();
    expect(() =>
      rooflineSection.parse({
        formula: 'x',
        rows: [{ ...rows[0], phases: [{ ...train, phase: 'update' }] }],
      }),
    ).toThrow();
  });
});
