// Custom WebGPU kernels of the model (DESIGN §8): fused LayerNorm (with gradient), fused
// log-softmax + target gather + entropy (with gradient) and fused single-token decode attention.
// tfjs-webgpu pays a fixed cost per dispatch (~600 per training step, reference/playground-tfjs.md
// §B5), so fewer, larger kernels make steps cheaper. The kernels are registered for the 'webgpu'
// backend only; every other backend keeps the unfused tfjs path untouched.
import * as tf from '@tensorflow/tfjs';
import { registerDecodeAttentionKernel } from './decodeAttention.js';
import { registerLayerNormKernels } from './layerNorm.js';
import { registerTokenLogProbKernels } from './tokenLogProbs.js';

export { DECODE_MAX_KEYS, fusedDecodeAttention } from './decodeAttention.js';
export { fusedLayerNorm } from './layerNorm.js';
export { type CompileProgress, type PrecompileShape, precompileShaders } from './precompile.js';
export { fusedTokenLogProbs } from './tokenLogProbs.js';

let enabled = true;

/** Turns the fused kernels on or off (benchmarks and checks compare both paths). Default on. */
export function setFusedKernels(on: boolean): void {
  enabled = on;
}

/** Whether the model should call the fused kernels now: enabled and the active backend is webgpu. */
export function fusedKernelsActive(): boolean {
  return enabled && tf.getBackend() === 'webgpu';
}

/** Registers every fused kernel for the webgpu backend now (each fused op also does on first use). */
export function registerFusedKernels(): void {
  registerLayerNormKernels();
  registerTokenLogProbKernels();
  registerDecodeAttentionKernel();
}
