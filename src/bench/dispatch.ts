// Counting GPU work: how many compute dispatches a piece of code records on the webgpu backend
// (by wrapping the backend's recordAndSubmit, where tfjs-webgpu encodes each dispatch), and how
// many kernels it runs on any backend (tf.profile). tfjs-webgpu pays a fixed CPU cost per
// dispatch, so this count predicts its step-time floor.
import * as tf from '@tensorflow/tfjs';

export interface DispatchCount<T> {
  value: T;
  /** Compute dispatches recorded (webgpu), or kernels executed (other backends). */
  dispatches: number;
  /** Top program names by dispatches (webgpu) or kernel names by count (others). */
  byName: Record<string, number>;
}

interface Recording {
  recordAndSubmit(
    program: { shaderKey?: string; constructor: { name: string } },
    ...rest: unknown[]
  ): unknown;
}

function top(counts: Map<string, number>, n = 12): Record<string, number> {
  return Object.fromEntries([...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n));
}

/**
 * Runs `fn` once and counts its dispatches (webgpu) or kernels (cpu, wasm). Not re-entrant.
 * On webgpu the count is exact: each recordAndSubmit encodes one dispatchWorkgroups call.
 */
export async function countDispatches<T>(fn: () => Promise<T>): Promise<DispatchCount<T>> {
  const counts = new Map<string, number>();
  const bump = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  if (tf.getBackend() === 'webgpu') {
    const backend = tf.backend() as unknown as Recording;
    const original = backend.recordAndSubmit;
    let dispatches = 0;
    backend.recordAndSubmit = function (this: Recording, program, ...rest) {
      dispatches++;
      bump((program.shaderKey ?? program.constructor.name).split('_')[0] ?? '?');
      return original.call(this, program, ...rest);
    };
    try {
      const value = await fn();
      return { value, dispatches, byName: top(counts) };
    } finally {
      backend.recordAndSubmit = original;
    }
  }
  let value: T | undefined;
  const info = await tf.profile(async () => {
    value = await fn();
    return [];
  });
  for (const k of info.kernels) bump(k.name);
  return { value: value as T, dispatches: info.kernels.length, byName: top(counts) };
}
