// GPU faults in the train worker (issue 10): tfjs's WebGPU backend neither watches its device
// nor turns GPU failures into errors of their own kind, so this module does. It listens to the
// device's `lost` promise (a driver reset, a GPU process crash, or `device.destroy()`) and to
// uncaptured out-of-memory and internal errors, and tells which thrown errors come from the GPU.
// The UI side answers a fault by restarting the worker on WASM from the run's last checkpoint.
import * as tf from '@tensorflow/tfjs';
import type { GpuFaultKind } from './protocol.js';

/** The parts of a GPUDevice used here (structural, so tests can pass a fake one). */
export interface GpuDeviceLike {
  lost: Promise<{ reason?: string; message?: string }>;
  addEventListener?(type: 'uncapturederror', fn: (e: { error?: unknown }) => void): void;
  destroy?(): void;
}

const watched = new WeakSet<object>();

/** The GPUDevice of tfjs's WebGPU backend when it is the backend in use; null otherwise. */
export function tfjsDevice(): GpuDeviceLike | null {
  if (tf.getBackend() !== 'webgpu') return null;
  const device = (tf.backend() as unknown as { device?: GpuDeviceLike }).device;
  return device && typeof device === 'object' && 'lost' in device ? device : null;
}

/** The class name of a GPUError ("GPUOutOfMemoryError", …); '' for anything else. */
function errorClass(error: unknown): string {
  if (!error || typeof error !== 'object') return '';
  return (error as { constructor?: { name?: string } }).constructor?.name ?? '';
}

/**
 * Calls `onFault` at most once per device: when it is lost, or on an uncaptured out-of-memory or
 * internal error. Validation errors are not faults (they are bugs, and tfjs reports them itself).
 * Watching the same device twice adds no second listener.
 */
export function watchDevice(
  device: GpuDeviceLike,
  onFault: (kind: GpuFaultKind, message: string) => void,
): void {
  if (watched.has(device)) return;
  watched.add(device);
  let fired = false;
  const fire = (kind: GpuFaultKind, message: string) => {
    if (fired) return;
    fired = true;
    onFault(kind, message);
  };
  void device.lost.then((info) => {
    const why = [info?.reason, info?.message].filter(Boolean).join(': ');
    fire('lost', `the WebGPU device was lost${why ? ` (${why})` : ''}`);
  });
  device.addEventListener?.('uncapturederror', (e) => {
    const cls = errorClass(e.error);
    const message = (e.error as { message?: string } | undefined)?.message ?? '';
    if (cls === 'GPUOutOfMemoryError')
      fire('oom', `the GPU ran out of memory${message ? ` (${message})` : ''}`);
    else if (cls === 'GPUInternalError')
      fire('internal', `internal GPU error${message ? ` (${message})` : ''}`);
  });
}

const GPU_ERROR = /out of memory|GPUDevice|GPUBuffer|GPUQueue|device (?:is |was )?lost|mapAsync|WebGPU/i;

/** Whether an error thrown by a training iteration on WebGPU came from the GPU itself. */
export function isGpuError(err: unknown): boolean {
  const cls = errorClass(err);
  if (cls === 'GPUOutOfMemoryError' || cls === 'GPUInternalError') return true;
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return GPU_ERROR.test(message);
}

/** Test hook: destroys tfjs's WebGPU device, which resolves its `lost` promise like a driver reset. */
export function loseDevice(): boolean {
  const device = tfjsDevice();
  if (!device?.destroy) return false;
  device.destroy();
  return true;
}
