// GPU fault detection with a fake device: a lost device and uncaptured out-of-memory or internal
// errors fire once; validation errors do not; errors thrown by an iteration are told apart.
import { describe, expect, it } from 'vitest';
import { type GpuDeviceLike, isGpuError, watchDevice } from './gpuWatch.js';

class GPUOutOfMemoryError extends Error {}
class GPUValidationError extends Error {}

function fakeDevice() {
  let lose: (info: { reason?: string; message?: string }) => void = () => {};
  const listeners: ((e: { error?: unknown }) => void)[] = [];
  const device: GpuDeviceLike = {
    lost: new Promise((r) => {
      lose = r;
    }),
    addEventListener: (_type, fn) => listeners.push(fn),
  };
  return {
    device,
    lose: (info: { reason?: string; message?: string }) => lose(info),
    raise: (error: unknown) => {
      for (const l of listeners) l({ error });
    },
  };
}

describe('watchDevice', () => {
  it('reports a lost device once, with its reason', async () => {
    const f = fakeDevice();
    const got: string[] = [];
    watchDevice(f.device, (kind, message) => got.push(`${kind}: ${message}`));
    watchDevice(f.device, (kind) => got.push(`second watcher ${kind}`));
    f.lose({ reason: 'destroyed', message: 'Device was destroyed.' });
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual(['lost: the WebGPU device was lost (destroyed: Device was destroyed.)']);
    f.raise(new GPUOutOfMemoryError('after the loss'));
    expect(got).toHaveLength(1);
  });

  it('reports out of memory but not validation errors', () => {
    const f = fakeDevice();
    const got: string[] = [];
    watchDevice(f.device, (kind) => got.push(kind));
    f.raise(new GPUValidationError('bad binding'));
    expect(got).toEqual([]);
    f.raise(new GPUOutOfMemoryError('createBuffer'));
    expect(got).toEqual(['oom']);
  });
});

describe('isGpuError', () => {
  it('tells GPU failures from ordinary ones', () => {
    expect(isGpuError(new Error("Failed to execute 'mapAsync' on 'GPUBuffer': Device is lost"))).toBe(true);
    expect(isGpuError(new GPUOutOfMemoryError('x'))).toBe(true);
    expect(isGpuError(new Error('the device was lost'))).toBe(true);
    expect(isGpuError(new Error('env worker: unknown env id'))).toBe(false);
    expect(isGpuError(new Error('contextLength 64 exceeds the base model'))).toBe(false);
  });
});
