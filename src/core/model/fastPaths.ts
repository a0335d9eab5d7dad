// The cheaper passes of issue 22, each with the old path kept behind a switch so the benchmark
// can time "before" and "after" in one run (same load for both sides) and the tests can check
// that the two agree. All on by default; only src/bench/ turns them off.
//
// - geluSigmoid (wasm): GELU's tanh form written as x·σ(2u) (tanh z = 2σ(2z) − 1, the same
//   function): tfjs-wasm's Tanh is a scalar loop ~25× slower than its XNNPACK Sigmoid
//   (1M values: ~110 ms against ~4.4 ms on the 2-core machine), and it saves two element-wise
//   ops. Values agree to ~5e-7.
// - decodeAttention (wasm): with one new token per row and a cache, q·kᵀ and p·v are a multiply
//   and a sum over the cache (no transpose of the cached keys, no batched product, which
//   tfjs-wasm runs as a scalar loop).
// - sampledOldLogp: the update's old log-probs are the sampler's, recorded at the rollout
//   temperature with the same weights, wherever the training window is the context the policy
//   sampled in (core/rl/sampledLogp.ts); only the other samples are scored again.
// - scoreBatched: the policy, reference and critic scores of an iteration in one pass per
//   length group — rows sorted by length and cut into groups where padding costs more than
//   another call (scoreBatch.ts) — with one read-back per group.
// - stridedProduct (wasm): the per-head attention products run in place in the wasm heap
//   (wasmKernels.ts) instead of through a copy of each slice; the same XNNPACK calls.
// - sharedClone (wasm): a clone shares its data instead of copying it (wasmKernels.ts).
// - layerNormGrad: LayerNorm's gradient written out (elementwise.ts), ~11 kernels for ~35.
// - rowCopies (wasm): the embedding's and the losses' row gathers as row copies in the heap
//   (wasmKernels.ts).
// - splitHeads (wasm): the attention projection cut into q, k, v heads in one pass of copies
//   instead of tf.split and three transposes (wasmKernels.ts).
// - geluGrad (wasm, with geluSigmoid): GELU's gradient written out (elementwise.ts).
// - weightGradOrder (wasm): a weight's gradient Aᵀ·dY as (dYᵀ·A)ᵀ when dY is the wider operand
//   (matmul.ts): XNNPACK packs the right operand on every call.
// - transposedGrad (wasm): a·bᵀ (attention's q·kᵀ, the LM head) with its own gradient, dA = dY·B
//   without a transpose and dB = dYᵀ·A with the narrow right operand (matmul.ts).
// - pickStep (wasm): the sampler's cdf < target as step(target − cdf), the same bits
//   (sampling.ts).

export interface FastPaths {
  geluSigmoid: boolean;
  decodeAttention: boolean;
  sampledOldLogp: boolean;
  scoreBatched: boolean;
  stridedProduct: boolean;
  sharedClone: boolean;
  layerNormGrad: boolean;
  rowCopies: boolean;
  splitHeads: boolean;
  geluGrad: boolean;
  weightGradOrder: boolean;
  transposedGrad: boolean;
  pickStep: boolean;
}

const ALL_ON: FastPaths = {
  geluSigmoid: true,
  decodeAttention: true,
  sampledOldLogp: true,
  scoreBatched: true,
  stridedProduct: true,
  sharedClone: true,
  layerNormGrad: true,
  rowCopies: true,
  splitHeads: true,
  geluGrad: true,
  weightGradOrder: true,
  transposedGrad: true,
  pickStep: true,
};

let current: FastPaths = { ...ALL_ON };

/** The switches in force. */
export function fastPaths(): Readonly<FastPaths> {
  return current;
}

/** Sets the switches (true: all on; false: all off, the code as before issue 22). */
export function setFastPaths(on: boolean | Partial<FastPaths>): void {
  if (typeof on === 'boolean') {
    current = on
      ? { ...ALL_ON }
      : (Object.fromEntries(Object.keys(ALL_ON).map((k) => [k, false])) as unknown as FastPaths);
  } else current = { ...current, ...on };
}

/** What "before" turns off, in words (the bench's before/after section). */
export const FAST_PATH_NOTES: readonly string[] = [
  'GELU through sigmoid on wasm (tanh there is a scalar loop)',
  'decode-step attention as multiply-and-sum on wasm',
  'old log-probs from the sampler where the window is the sampled context',
  'policy/reference/critic scored in one pass per length group',
  'attention products as in-place XNNPACK calls on wasm (no slice copies)',
  'clones share their data on wasm (tfjs copies every tensor a gradient saves)',
  'LayerNorm gradient written out (fewer kernels than autodiff)',
  'row gathers as row copies on wasm',
  'q, k, v heads cut from the projection in one pass on wasm',
  'GELU gradient written out on wasm',
  'weight gradients with the narrower right operand on wasm',
  'a·bᵀ products with their own gradient on wasm (no transposes back and forth)',
  'the sampler’s cdf comparison as step(target − cdf) on wasm',
];
