// The throughput section's kernel count: a decoding step on the echo-trap model, counted (not
// timed) on WASM. Issue 47 asks for at most 80; today's count is the regression guard.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../workers/node/backend.js';
import { decodeStepKernels } from './throughputBench.js';

beforeAll(async () => {
  await setupNodeBackend('wasm');
});

describe('a decoding step’s kernels', () => {
  it('counts the calls one more token adds, reshapes apart, and stays within today’s count', async () => {
    const [all, compute] = await decodeStepKernels('echo-trap', 'wasm');
    expect(compute).toBeLessThan(all);
    expect(all - compute).toBeGreaterThan(0); // reshapes and gradient scopes
    expect(compute).toBeLessThanOrEqual(84); // 84 today, 99 at 112bd89, 151 before the decoding work (8d1713c)
    expect(await decodeStepKernels('echo-trap', 'wasm')).toEqual([all, compute]);
  });
});
