// 'auto' never picks a software WebGPU adapter over WASM, however the adapter
// names itself; forcing 'webgpu' is the user's call. A fake navigator.gpu stands in for the
// adapter (no WebGPU backend is registered in Node, so a forced 'webgpu' falls back with the
// reason; what matters here is the skip and its words).
import * as tf from '@tensorflow/tfjs';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseBackend } from './backend.js';
import { type AdapterReport, isSoftwareAdapter } from './backendInfo.js';

const adapter = (over: Partial<AdapterReport>): AdapterReport => ({
  vendor: '',
  architecture: '',
  device: '',
  description: '',
  isFallback: false,
  ...over,
});

describe('software adapters', () => {
  it('are told apart by the fallback flag or by a software renderer or CPU device name', () => {
    expect(isSoftwareAdapter(adapter({ isFallback: true, vendor: 'acme' }))).toBe(true);
    expect(isSoftwareAdapter(adapter({ vendor: 'google', architecture: 'swiftshader' }))).toBe(true);
    expect(isSoftwareAdapter(adapter({ description: 'llvmpipe (LLVM 15.0.6, 256 bits)' }))).toBe(true);
    expect(isSoftwareAdapter(adapter({ description: 'Microsoft Basic Render Driver' }))).toBe(true);
    expect(isSoftwareAdapter(adapter({ device: 'CPU' }))).toBe(true);
    expect(
      isSoftwareAdapter(adapter({ vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200' })),
    ).toBe(false);
    expect(isSoftwareAdapter(adapter({ vendor: 'apple', architecture: 'metal-3' }))).toBe(false);
    expect(isSoftwareAdapter(null)).toBe(false);
  });
});

describe('chooseBackend with a software adapter', () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  afterEach(() => {
    if (saved) Object.defineProperty(globalThis, 'navigator', saved);
  });

  const fakeAdapter = (info: Partial<AdapterReport>) =>
    Object.defineProperty(globalThis, 'navigator', {
      configurable: true,
      value: {
        gpu: {
          requestAdapter: async () => ({
            info: { vendor: '', architecture: '', device: '', description: '', ...info },
          }),
        },
      },
    });

  it("'auto' skips it for WASM and says why", async () => {
    fakeAdapter({ vendor: 'google', architecture: 'swiftshader' });
    const r = await chooseBackend('auto');
    expect(r.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(r.fallbacks[0]?.backend).toBe('webgpu');
    expect(r.fallbacks[0]?.reason).toMatch(/google swiftshader \(software\) renders in software/);
  });

  it("'auto' does not skip a hardware adapter as software (it tries WebGPU, which Node lacks)", async () => {
    fakeAdapter({ vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200' });
    const r = await chooseBackend('auto');
    expect(r.fallbacks[0]?.backend).toBe('webgpu');
    expect(r.fallbacks[0]?.reason).not.toMatch(/renders in software/);
  });
});
