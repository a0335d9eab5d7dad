import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSelfCheck, trainProbe } from './selfCheck.js';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('backend self-check', () => {
  it('trains: the loss falls over the probe steps, deterministically', async () => {
    const a = await trainProbe(3, 5);
    const b = await trainProbe(3, 5);
    expect(a).toEqual(b);
    expect(a[2]).toBeLessThan(a[0]!);
  });

  it('compares two runs of the same backend exactly and leaves no tensors behind', async () => {
    const before = tf.memory().numTensors;
    const r = await runSelfCheck(['cpu', 'cpu'], 2, 1);
    expect(r.results).toHaveLength(2);
    expect(r.maxAbsDiff).toBe(0);
    expect(tf.memory().numTensors).toBe(before);
  });
});
