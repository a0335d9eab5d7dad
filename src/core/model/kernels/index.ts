// Custom WebGPU kernels of the model: fused LayerNorm (with gradient), fused
// log-softmax + target gather + entropy (with gradient), fused single-token decode attention, and
// the fused optimizer step's kernels (flat gradients, one-dispatch global norm, Adam; adam.ts,
// stepped by model/adam.ts).
// tfjs-webgpu pays a fixed cost per dispatch (hundreds per training step; src/bench/dispatch.ts
// counts them), so fewer, larger kernels make steps cheaper. The kernels are registered for the 'webgpu'
// backend only; every other backend keeps the unfused tfjs path untouched.

export { adamMoments, adamParam, flattenGradients, fusedGlobalNorm } from './adam.js';
export { ATTENTION_MAX_TOKENS, fusedAttentionFits, fusedCausalAttention } from './attention.js';
export { DECODE_MAX_KEYS, fusedDecodeAttention } from './decodeAttention.js';
export { fusedGelu } from './gelu.js';
export { fusedLayerNorm } from './layerNorm.js';
export { fusedKernelsActive, setFusedKernels } from './switch.js';
export { fusedTokenLogProbs } from './tokenLogProbs.js';
