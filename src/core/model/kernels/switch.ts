// The on/off switch of the fused WebGPU kernels, in a module of its own so that every kernel
// file (and the model) can ask it without importing the kernel index. Fused kernels run only on
// the 'webgpu' backend; cpu and wasm always take the unfused tfjs path.
import * as tf from '@tensorflow/tfjs';

let enabled = true;

/** Turns the fused kernels on or off (benchmarks and checks compare both paths). Default on. */
export function setFusedKernels(on: boolean): void {
  enabled = on;
}

/** Whether the model should call the fused kernels now: enabled and the active backend is webgpu. */
export function fusedKernelsActive(): boolean {
  return enabled && tf.getBackend() === 'webgpu';
}
