// The checkpoint figure of the bench on a short run of the tiny preset (fresh weights: no base model ships for it): a checkpoint after every
// timed iteration, its size that of the weights, and the overhead its time over the interval's.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { benchCheckpoint } from './checkpointBench.js';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('benchCheckpoint', () => {
  it('times checkpoints of the preset as the worker takes them, and their share of the interval', async () => {
    const before = tf.memory().numTensors;
    const b = await benchCheckpoint('tiny', 'cpu', 2, 'random');
    expect(b).toMatchObject({ preset: 'tiny', backend: 'cpu', iterations: 2, every: 50 });
    expect(b.checkpointMs).toBeGreaterThan(0);
    // Weights, Adam's two moments each: more bytes than the float32 weights alone.
    expect(b.checkpointBytes).toBeGreaterThan(1000);
    expect(b.overhead).toBeCloseTo(b.checkpointMs / (50 * b.secondsPerIteration * 1000), 10);
    expect(tf.memory().numTensors).toBe(before);
  });
});
