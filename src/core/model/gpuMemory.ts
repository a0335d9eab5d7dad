// The GPU buffer figures tfjs-backend-webgpu adds to tf.memory(): bytes held by live tensors
// (numBytesInGPU) and all buffers it has created and not destroyed, its free pool included
// (numBytesAllocatedInGPU). Other backends report neither. Read by the trainer's memory metric,
// the bench and the soak, so they name the same figures.
import * as tf from '@tensorflow/tfjs';

export interface GpuMemory {
  /** Bytes held by live tensors (webgpu; null elsewhere). */
  inUse: number | null;
  /** Bytes of every buffer created and not destroyed, free pool included (webgpu; null elsewhere). */
  allocated: number | null;
}

export function gpuMemory(): GpuMemory {
  const m = tf.memory() as tf.MemoryInfo & { numBytesInGPU?: number; numBytesAllocatedInGPU?: number };
  return { inUse: m.numBytesInGPU ?? null, allocated: m.numBytesAllocatedInGPU ?? null };
}

/** The bytes the backend holds on the GPU, pool included (0 off webgpu). */
export function gpuBytes(): number {
  const g = gpuMemory();
  return g.allocated ?? g.inUse ?? 0;
}
