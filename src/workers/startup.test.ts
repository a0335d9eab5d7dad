// Start-up backend choice: the probe's figures as the status line says them, the fastest pick,
// and a forced backend starting without a probe or a shader warm-up (Node: cpu, no WebGPU).
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import {
  type BackendReport,
  describeBackend,
  describeProbe,
  plainBackend,
  type StartupStatus,
} from './backendInfo.js';
import { fastestBackend } from './probe.js';
import { startTfjs, warmupSettled } from './startup.js';

const report: BackendReport = {
  backend: 'webgpu',
  requested: 'auto',
  adapter: { vendor: 'acme', architecture: 'x1', device: '', description: '', isFallback: false },
  wasm: null,
  fallbacks: [],
  probe: {
    size: 'micro',
    note: 'fastest one training step',
    figures: [
      { backend: 'webgpu', msPerStep: 41.4, firstStepMs: 900, reason: '' },
      { backend: 'wasm', msPerStep: null, firstStepMs: null, reason: 'no SIMD' },
    ],
  },
};

describe('start-up probe', () => {
  it('says the figures per backend, rounded, and why one did not run', () => {
    expect(describeProbe(report.probe as NonNullable<BackendReport['probe']>)).toBe(
      'probe (micro, one training step): webgpu 41 ms/step, wasm did not run (no SIMD)',
    );
    expect(describeBackend(report)).toBe(
      'webgpu on acme x1 · probe (micro, one training step): webgpu 41 ms/step, wasm did not run (no SIMD)',
    );
    expect(describeProbe({ size: 'nano', figures: [], note: 'not timed: a software adapter' })).toBe(
      'probe (nano) not timed: a software adapter',
    );
  });

  it('says the backend in plain words, the GPU passed over when it was', () => {
    expect(plainBackend(report)).toBe('Training on your GPU (WebGPU)');
    const soft = {
      ...report,
      adapter: { ...(report.adapter as NonNullable<BackendReport['adapter']>), isFallback: true },
    };
    expect(plainBackend(soft)).toBe('Training on your GPU (WebGPU, a software renderer: slow)');
    const wasm: BackendReport = {
      ...report,
      backend: 'wasm',
      fallbacks: [{ backend: 'webgpu', reason: 'renders in software' }],
    };
    expect(plainBackend(wasm)).toBe('Training on your processor (WebAssembly); the GPU was not used');
    expect(plainBackend({ ...wasm, fallbacks: [] })).toBe('Training on your processor (WebAssembly)');
    expect(plainBackend({ ...wasm, backend: 'cpu', fallbacks: [] })).toBe(
      'Training on your processor in plain JavaScript (the slowest way)',
    );
  });

  it('picks the fastest backend that ran, for the size asked', () => {
    const rows = [
      { backend: 'webgpu' as const, size: 'nano' as const, msPerStep: 80, firstStepMs: 1, reason: '' },
      { backend: 'wasm' as const, size: 'nano' as const, msPerStep: 30, firstStepMs: 1, reason: '' },
      { backend: 'cpu' as const, size: 'nano' as const, msPerStep: null, firstStepMs: null, reason: 'x' },
      { backend: 'webgpu' as const, size: 'micro' as const, msPerStep: 50, firstStepMs: 1, reason: '' },
      { backend: 'wasm' as const, size: 'micro' as const, msPerStep: 120, firstStepMs: 1, reason: '' },
    ];
    expect(fastestBackend(rows, 'nano')).toBe('wasm');
    expect(fastestBackend(rows, 'micro')).toBe('webgpu');
    expect(fastestBackend(rows, 'small')).toBeNull();
  });

  it('starts a forced backend without a probe or a shader warm-up', async () => {
    const statuses: StartupStatus[] = [];
    const r = await startTfjs('cpu', 'nano', undefined, (s) => statuses.push(s));
    expect(r.backend).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(r.probe).toBeUndefined();
    await warmupSettled();
    expect(statuses).toEqual([]);
  });
});
