// The FLOP meter counts every matrix product the engine runs, by hand: plain, transposed,
// batched (on wasm the strided kernel), inside a gradient, and only while installed.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { matMulFast } from '../core/model/matmul.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import { FlopMeter } from './flopMeter.js';

beforeAll(async () => {
  await setupNodeBackend('wasm');
});

describe('the FLOP meter', () => {
  it('counts 2·batch·M·K·N for each product in its window, and nothing once stopped', () => {
    const meter = new FlopMeter();
    const t0 = performance.now();
    const [a, b] = [tf.ones([4, 8]) as tf.Tensor2D, tf.ones([8, 3]) as tf.Tensor2D];
    tf.tidy(() => tf.matMul(a, b)); // 2·4·8·3 = 192
    tf.tidy(() => tf.matMul(b, a, true, true)); // [3, 8]·[8, 4]: 192
    const x = tf.ones([6, 2, 64, 16]);
    const y = tf.ones([6, 2, 16, 64]);
    tf.tidy(() => matMulFast(x, y)); // batched, strided on wasm: 2·12·64·16·64
    const mid = performance.now();
    expect(meter.between(t0, mid + 1)).toBe(192 + 192 + 2 * 12 * 64 * 16 * 64);
    // A gradient's products count too: d(sum(a·w))/dw = aᵀ·1, one more product of 2·8·4·3.
    const w = tf.variable(tf.ones([8, 3]));
    const t1 = performance.now();
    tf.tidy(() => tf.variableGrads(() => tf.matMul(a, w).sum() as tf.Scalar, [w]));
    expect(meter.between(t1, performance.now() + 1)).toBeGreaterThanOrEqual(192 + 192);
    meter.stop();
    const t2 = performance.now();
    tf.tidy(() => tf.matMul(a, b));
    expect(meter.between(t2, performance.now() + 1)).toBe(0);
    tf.dispose([a, b, x, y, w]);
  });
});
