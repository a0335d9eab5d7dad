// Forward pass of the decoder-only transformer, bottom-up as in nanoGPT's model.py:
// token + learned position embeddings, pre-LayerNorm blocks (causal self-attention, GELU MLP),
// a final LayerNorm, then tied embeddings as the LM head (policy) or a value head (critic).
// The embedding is a row gather; when gradients are needed it is rows.ts selectRows, whose
// gradient scatter-adds into the table (the WASM backend has no gradient for gather). It used
// to be oneHot·matMul: B·T·V·D multiply-adds each way, half of a WebShop-lite SFT step's time
// (16 × 192 tokens, vocabulary 2,184, WASM: 1,082 → 553 ms a step).
// B = rows, T = new tokens, P = cached tokens, S = P + T keys, D = width, H = heads,
// K = D / H head width, F = MLP width, V = vocabulary, C = context.
//
// Ownership: every function here returns new tensors and keeps nothing; callers run them inside
// tf.tidy (or a gradient function) and tf.keep what must outlive it (the KV cache).
import * as tf from '@tensorflow/tfjs';
import { gelu, geluInference, layerNorm, layerNormInference } from './elementwise.js';
import {
  DECODE_MAX_KEYS,
  fusedAttentionFits,
  fusedCausalAttention,
  fusedDecodeAttention,
  fusedGelu,
  fusedKernelsActive,
  fusedLayerNorm,
} from './kernels/index.js';
import { addBias } from './leadingSums.js';
import { matMulFast } from './matmul.js';
import type { Model } from './params.js';
import { gatherRows, selectRows } from './rows.js';
import { onePass, scaleBiasWasm } from './wasmInference.js';
import { splitHeadsWasm } from './wasmKernels.js';

/** Keys and values of every layer from earlier calls, each [B, H, P, K]. */
export interface KvCache {
  keys: tf.Tensor4D[];
  values: tf.Tensor4D[];
}

export interface ForwardInput {
  /** [B, T] int32 token ids. */
  tokens: tf.Tensor2D;
  /** [B, T] int32 position ids; default P, P+1, …, P+T−1 for every row. */
  positions?: tf.Tensor2D;
  /** [B, 1, 1, S] additive bias: 0 for keys a row may attend, −1e9 for padding keys. */
  keyBias?: tf.Tensor4D;
  /** Earlier keys and values; the returned cache holds these plus the new tokens'. */
  cache?: KvCache;
  /** 'train' (differentiable everywhere) or 'gather' (inference only, cheaper). */
  embed: 'train' | 'gather';
  /**
   * The caller never reads the returned cache (training, scoring): the fused causal attention
   * may then skip building it, and `cache` comes back with empty lists when it did.
   */
  noCache?: boolean;
}

export interface ForwardOutput {
  /** [B, T, D] final hidden states, after the last LayerNorm. */
  hidden: tf.Tensor3D;
  /** Keys and values of all S tokens, per layer. */
  cache: KvCache;
}

/** Large negative bias that zeroes a softmax weight exactly in float32. */
export const MASKED = -1e9;

const w = (model: Model, name: string): tf.Variable => {
  const v = model.weights[name];
  if (!v) throw new Error(`model has no weight "${name}"`);
  return v;
};

/** Rows of `table` [N, D] picked by int32 `ids` [M] -> [M, D]. */
function embedRows(table: tf.Tensor2D, ids: tf.Tensor1D, mode: 'train' | 'gather'): tf.Tensor2D {
  return mode === 'gather' ? gatherRows(table, ids) : selectRows(table, ids);
}

/** [T, S] causal bias for T new queries after P cached keys: query i sees keys j <= P + i. */
function causalBias(T: number, S: number): tf.Tensor2D {
  const P = S - T;
  const bias = new Float32Array(T * S);
  for (let i = 0; i < T; i++) for (let j = P + i + 1; j < S; j++) bias[i * S + j] = MASKED;
  return tf.tensor2d(bias, [T, S]);
}

/**
 * How a forward pass computes attention, chosen once per call (every layer takes the same path):
 * - `fused-causal`: webgpu's fused kernel over the whole causal window, straight from the q/k/v
 *   projection, when nothing reads the cache (training, scoring) and the rows fit it;
 * - `fused-decode`: webgpu's single-token kernel over a cache, inference only;
 * - `wasm-decode`: one new token per row against a cache on wasm, q·kᵀ and p·v as a multiply and
 *   a sum over the cache (no transpose of the cached keys, no batched product, which tfjs-wasm
 *   runs as a scalar loop);
 * - `batched`: scores and weighted values as batched products (matmul.ts), everywhere else.
 */
export type AttentionPath = 'fused-causal' | 'fused-decode' | 'wasm-decode' | 'batched';

/** The attention path for a call of `forward` (see AttentionPath). */
export function chooseAttention(input: ForwardInput, fused: boolean, H: number): AttentionPath {
  const [B, T] = input.tokens.shape;
  const S = (input.cache?.keys[0]?.shape[2] ?? 0) + T;
  const decodeStep = T === 1 && input.cache !== undefined && input.embed === 'gather';
  if (fused && !input.cache && !input.keyBias && input.noCache === true && fusedAttentionFits(B, T, H))
    return 'fused-causal';
  if (fused && decodeStep && input.keyBias && S <= DECODE_MAX_KEYS) return 'fused-decode';
  if (!fused && decodeStep && tf.getBackend() === 'wasm') return 'wasm-decode';
  return 'batched';
}

/** Attention dimensions: B rows, H heads of width K, T queries, S keys, D = H·K. */
interface AttentionDims {
  B: number;
  H: number;
  K: number;
  T: number;
  S: number;
  D: number;
}

/** One query per row against the cache as multiply-and-sum: -> [B, D]. */
function decodeAttention(
  q: tf.Tensor4D,
  k: tf.Tensor4D,
  v: tf.Tensor4D,
  bias: tf.Tensor,
  { B, H, K, S, D }: AttentionDims,
): tf.Tensor {
  // [B, H, 1, K] * [B, H, S, K] -> sum -> [B, H, S] -> [B, H, 1, S], scaled, plus the key bias
  // [B, 1, 1, S] (one pass for a decoding step's few values: wasmInference.ts, the same bits).
  const dots = q.mul(k).sum(-1);
  const keyShaped = bias.rank === 4 && bias.shape[0] === B && bias.shape[3] === S;
  const scores =
    keyShaped && onePass(dots.size)
      ? scaleBiasWasm(dots.reshape([B, H, 1, S]), bias, 1 / Math.sqrt(K))
      : dots
          .mul(1 / Math.sqrt(K))
          .reshape([B, H, 1, S])
          .add(bias);
  // [B, H, S, 1] * [B, H, S, K] -> sum over S -> [B, H, K] -> [B, D]
  return (tf.softmax(scores) as tf.Tensor).reshape([B, H, S, 1]).mul(v).sum(2).reshape([B, D]);
}

/** Scaled dot-product attention as batched products: -> [B·T, D]. */
function batchedAttention(
  q: tf.Tensor4D,
  k: tf.Tensor4D,
  v: tf.Tensor4D,
  bias: tf.Tensor,
  { B, K, T, D }: AttentionDims,
): tf.Tensor {
  // [B, H, T, K] x [B, H, K, S] -> [B, H, T, S]
  const scores = matMulFast(q, k, false, true)
    .mul(1 / Math.sqrt(K))
    .add(bias);
  // [B, H, T, S] x [B, H, S, K] -> [B, H, T, K] -> [B, T, D]
  return matMulFast(tf.softmax(scores) as tf.Tensor4D, v)
    .transpose([0, 2, 1, 3])
    .reshape([B * T, D]);
}

/**
 * What every block of one forward call shares: the model, its shapes, and the kernels chosen once
 * for the call (on webgpu fused ones replace LayerNorm, GELU and the bias adds: kernels/index.ts).
 */
interface Trunk {
  model: Model;
  dims: AttentionDims;
  norm: (x: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => tf.Tensor;
  act: (x: tf.Tensor) => tf.Tensor;
  /** [N, I] x [I, O] + [O] -> [N, O] with the weight and bias of these names. */
  linear: (a: tf.Tensor, wName: string, bName: string) => tf.Tensor;
}

/**
 * The trunk of one call: the fused kernels when `fused` (webgpu), tfjs's ops and matmul.ts's
 * otherwise, LayerNorm and GELU's sigmoid argument in one pass for a decoding step's few values
 * on wasm (`inference`: no gradient).
 */
function trunkOf(model: Model, dims: AttentionDims, fused: boolean, inference: boolean): Trunk {
  const linear = (a: tf.Tensor, wName: string, bName: string): tf.Tensor =>
    fused
      ? tf.fused.matMul({
          a: a as tf.Tensor2D,
          b: w(model, wName) as tf.Tensor as tf.Tensor2D,
          bias: w(model, bName),
        })
      : addBias(matMulFast(a, w(model, wName)), w(model, bName));
  const norm = fused ? fusedLayerNorm : inference ? layerNormInference : layerNorm;
  const act = fused ? fusedGelu : inference ? geluInference : gelu;
  return { model, dims, norm, act, linear };
}

/** Token plus position embeddings, [B, T, D]; positions P, P+1, … unless the input gives them. */
function embedTokens(model: Model, input: ForwardInput, P: number, { B, T, D }: AttentionDims): tf.Tensor {
  const wte = w(model, 'wte') as tf.Tensor as tf.Tensor2D;
  const wpe = w(model, 'wpe') as tf.Tensor as tf.Tensor2D;
  // [B*T] ids -> [B*T, D] -> [B, T, D]
  const x = embedRows(wte, input.tokens.reshape([B * T]), input.embed).reshape([B, T, D]);
  if (input.positions) {
    return x.add(embedRows(wpe, input.positions.reshape([B * T]), input.embed).reshape([B, T, D]));
  }
  return addBias(x, wpe.slice([P, 0], [T, D])); // [B, T, D] + [T, D]
}

/** The rest of block `p` after attention: output projection, residual, LayerNorm, MLP, residual. */
function mlpBlock(t: Trunk, p: string, x0: tf.Tensor, att: tf.Tensor): tf.Tensor {
  const { model, norm, act, linear } = t;
  const { B, T, D } = t.dims;
  // [B*T, D] x [D, D] -> [B*T, D]
  const proj = linear(att, `${p}attn.wo`, `${p}attn.bo`);
  const x1 = x0.add(proj.reshape([B, T, D]));
  const m = norm(x1, w(model, `${p}ln2.g`), w(model, `${p}ln2.b`)).reshape([B * T, D]);
  // [B*T, D] x [D, F] -> [B*T, F] x [F, D] -> [B*T, D]
  const hid = act(linear(m, `${p}mlp.wfc`, `${p}mlp.bfc`));
  const out = linear(hid, `${p}mlp.wproj`, `${p}mlp.bproj`);
  return x1.add(out.reshape([B, T, D]));
}

/** How every layer of one call attends: its path, the [T, S] (+ key) bias, wasm's head split. */
interface AttentionPlan {
  path: AttentionPath;
  bias: tf.Tensor;
  /** On wasm q, k and v are cut from the projection as heads in one pass of copies. */
  splitHeads: boolean;
}

/** Block `l` on x [B, T, D]: its keys and values (past ones first) are pushed onto `cache`. */
function block(
  t: Trunk,
  l: number,
  x: tf.Tensor,
  input: ForwardInput,
  a: AttentionPlan,
  cache: KvCache,
): tf.Tensor {
  const { model, norm, linear } = t;
  const { B, T, H, K, D } = t.dims;
  const toHeads = (h: tf.Tensor): tf.Tensor4D => h.reshape([B, T, H, K]).transpose([0, 2, 1, 3]); // -> [B, H, T, K]
  const p = `h${l}.`;
  const n = norm(x, w(model, `${p}ln1.g`), w(model, `${p}ln1.b`)).reshape([B * T, D]);
  // [B*T, D] x [D, 3D] -> [B*T, 3D]
  const qkv = linear(n, `${p}attn.wqkv`, `${p}attn.bqkv`);
  if (a.path === 'fused-causal') {
    // [B*T, 3D] -> [B*T, D] in one kernel; no cache is built (the caller reads none).
    return mlpBlock(t, p, x, fusedCausalAttention(qkv as tf.Tensor2D, B, T, H));
  }
  // [B*T, 3D] -> k, v as [B, H, T, K] and q as [B*T, D], its heads made where a branch needs
  // them (the fused decode reads it flat); on wasm all three as heads in one pass of copies.
  let q: tf.Tensor;
  let kNew: tf.Tensor4D;
  let vNew: tf.Tensor4D;
  if (a.splitHeads) [q, kNew, vNew] = splitHeadsWasm(qkv as tf.Tensor2D, B, T, H);
  else {
    const [qs, ks, vs] = tf.split(qkv, 3, 1) as [tf.Tensor, tf.Tensor, tf.Tensor];
    [q, kNew, vNew] = [qs, toHeads(ks), toHeads(vs)];
  }
  const queries = (): tf.Tensor4D => (a.splitHeads ? (q as tf.Tensor4D) : toHeads(q)); // [B, H, T, K]
  const past = input.cache;
  const k = past ? tf.concat([past.keys[l] as tf.Tensor4D, kNew], 2) : kNew; // [B, H, S, K]
  const v = past ? tf.concat([past.values[l] as tf.Tensor4D, vNew], 2) : vNew;
  cache.keys.push(k);
  cache.values.push(v);
  const att = ATTEND[a.path]({ q, queries, k, v, bias: a.bias, keyBias: input.keyBias, dims: t.dims });
  return mlpBlock(t, p, x, att);
}

/** What a path that attends over the cache reads: q flat [B·T, D] or as heads, k, v [B, H, S, K], the biases. */
interface AttendInput {
  q: tf.Tensor;
  queries: () => tf.Tensor4D;
  k: tf.Tensor4D;
  v: tf.Tensor4D;
  bias: tf.Tensor;
  keyBias: tf.Tensor4D | undefined;
  dims: AttentionDims;
}

/** Each path's attention over the cache, as a table (fused-causal reads no cache: `block` takes it first). */
const ATTEND: Readonly<Record<Exclude<AttentionPath, 'fused-causal'>, (i: AttendInput) => tf.Tensor>> = {
  // [B, D], inference only
  'fused-decode': (i) => fusedDecodeAttention(i.q, i.k, i.v, i.keyBias as tf.Tensor4D),
  'wasm-decode': (i) => decodeAttention(i.queries(), i.k, i.v, i.bias, i.dims),
  batched: (i) => batchedAttention(i.queries(), i.k, i.v, i.bias, i.dims),
};

/** Runs the shared trunk: embeddings, blocks, final LayerNorm. */
export function forward(model: Model, input: ForwardInput): ForwardOutput {
  const { dModel: D, nHeads: H, nLayers } = model.config;
  const K = D / H;
  const [B, T] = input.tokens.shape;
  const P = input.cache?.keys[0]?.shape[2] ?? 0;
  const S = P + T;
  if (S > model.config.context)
    throw new Error(`forward: ${S} tokens exceed the context ${model.config.context}`);
  // On webgpu, fused kernels replace LayerNorm, GELU, the bias adds (fused matMul) and two of
  // the attention paths (kernels/index.ts).
  const fused = fusedKernelsActive();
  const path = chooseAttention(input, fused, H);
  const t = trunkOf(model, { B, H, K, T, S, D }, fused, input.embed === 'gather');
  const splitHeads = !fused && tf.getBackend() === 'wasm';
  let x = embedTokens(model, input, P, t.dims);
  // [T, S] (+ [B, 1, 1, S]) -> broadcast over [B, H, T, S]. One new query after its cached keys
  // may see them all: its causal bias is zeros, so the key bias alone is the same sum.
  let bias: tf.Tensor;
  if (T === 1 && input.keyBias) bias = input.keyBias;
  else {
    bias = path === 'fused-causal' ? tf.scalar(0) : causalBias(T, S); // that kernel masks itself
    if (input.keyBias) bias = bias.add(input.keyBias);
  }
  const cache: KvCache = { keys: [], values: [] };
  for (let l = 0; l < nLayers; l++) x = block(t, l, x, input, { path, bias, splitHeads }, cache);
  const hidden = t.norm(x, w(model, 'lnf.g'), w(model, 'lnf.b')) as tf.Tensor3D;
  return { hidden, cache };
}

/**
 * The tied LM head laid out for inference calls that repeat (a turn's decoding steps): on wasm
 * the embedding transposed once, [D, V], so each step is one plain product on the same operand
 * (XNNPACK keeps its packing of it) where matMulFast would transpose wte again every step; the
 * same product, so the same logits. null elsewhere (lmLogits then takes wte as it is). The
 * caller disposes it.
 */
export function inferenceHead(model: Model): tf.Tensor2D | null {
  if (tf.getBackend() !== 'wasm' || model.kind !== 'policy') return null;
  return tf.tidy(() => (w(model, 'wte') as tf.Tensor as tf.Tensor2D).transpose() as tf.Tensor2D);
}

/**
 * LM head with tied embeddings: [B, T, D] -> [B, T, V] logits. Policy only. `head`, when given,
 * is inferenceHead's [D, V] (no gradient flows through it).
 */
export function lmLogits(model: Model, hidden: tf.Tensor3D, head?: tf.Tensor2D | null): tf.Tensor3D {
  if (model.kind !== 'policy') throw new Error('lmLogits: the model is not a policy');
  const [B, T, D] = hidden.shape;
  // [B*T, D] x [D, V] -> [B*T, V]
  if (head) return tf.matMul(hidden.reshape([B * T, D]) as tf.Tensor2D, head).reshape([B, T, -1]);
  // [B*T, D] x [V, D]^T -> [B*T, V]
  return matMulFast(
    hidden.reshape([B * T, D]),
    w(model, 'wte') as tf.Tensor as tf.Tensor2D,
    false,
    true,
  ).reshape([B, T, -1]);
}

/** Value head: [B, T, D] -> [B, T] values. Critic only. */
export function valueHead(model: Model, hidden: tf.Tensor3D): tf.Tensor2D {
  if (model.kind !== 'critic') throw new Error('valueHead: the model is not a critic');
  const [B, T, D] = hidden.shape;
  // [B*T, D] x [D, 1] -> [B*T, 1]
  return matMulFast(hidden.reshape([B * T, D]), w(model, 'vhead.w') as tf.Tensor as tf.Tensor2D)
    .add(w(model, 'vhead.b'))
    .reshape([B, T]);
}
