// Kernels this project registers on tfjs-wasm (4.22), each removing a cost that a kernel
// profile of the nano training step showed (issue 22):
//
// - StarpoStridedMatMul: [batch, M, K]·[batch, K, N] as `batch` XNNPACK 2-D products read and
//   written in place in the wasm heap. tfjs-wasm runs a product with a batch above 1 through a
//   scalar loop (~2 GFLOP/s against ~20), so attention's per-head products were split into 2-D
//   products before; each slice was copied into a tensor of its own and the results joined
//   with a concat, which cost as much again as the products (92 heads × 4 products a layer).
//   Here every entry is registered with the C++ side as a view (id, size, offset) into its
//   tensor, multiplied by the backend's own BatchMatMul with a batch of 1 (its XNNPACK path),
//   and the views are released at once, which also drops the XNNPACK operator cached on the
//   right operand's id. Same call, same numbers, no copies.
// - Identity (replacing tfjs-wasm's): tfjs saves a clone of every input a gradient needs, and
//   tfjs-wasm's Identity copies the data where the CPU and WebGL backends share it (one more
//   reference). Tensors are immutable, so a clone may share: 282 copies a nano step, ~7% of it.
// - StarpoGatherRows: rows of a [N, D] table picked by int32 ids, as row copies in the heap.
//   tfjs-wasm's GatherV2 takes ~9 ms for a nano step's 2,944 embedding rows of 64 (an index
//   computation per element); the copies take ~0.3 ms. (Its gradient, tfjs-wasm's ScatterNd,
//   is fast already.)
// - StarpoSplitHeads: the attention's [B·T, 3D] projection cut into q, k and v as [B, H, T, K]
//   each, in one pass of copies; its gradient (StarpoMergeHeads) is the inverse pass.
//   tf.split and three transposes took ~6.6 ms for a nano minibatch (tfjs-wasm's SplitV copies
//   through a generic slice).
// - StarpoLeadingSums: the column sums of [R, C] (a bias's gradient, LayerNorm's dγ and dβ), row
//   after row into a float32 accumulator per column — the order and rounding of tfjs-wasm's
//   Sum, which first transposes its input (~17 ms for the MLP's [6144, 256] bias gradient).
// (The one-pass kernels of inference, LayerNorm among them, are in wasmInference.ts.)
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

export const STRIDED_MATMUL = 'StarpoStridedMatMul';
const GATHER_ROWS = 'StarpoGatherRows';
const SPLIT_HEADS = 'StarpoSplitHeads';
const MERGE_HEADS = 'StarpoMergeHeads';
const LEADING_SUMS = 'StarpoLeadingSums';

/** The low-level parts of the wasm module the kernels use. */
interface WasmModule {
  cwrap(name: string, ret: null, args: string[]): (...args: unknown[]) => void;
  tfjs: {
    registerTensor(id: number, size: number, memoryOffset: number): void;
    disposeData(id: number): void;
  };
}

/** Ids for the views, far above the backend's own counter (which counts up from 0). */
const VIEW_IDS = [2 ** 31 - 3, 2 ** 31 - 2, 2 ** 31 - 1] as const;

/** The byte shape [1, r, c] as the BatchMatMul export takes it. */
const shape3 = (r: number, c: number): Uint8Array => new Uint8Array(new Int32Array([1, r, c]).buffer);

/** Heap offset of a tensor's data, in bytes. */
function byteOffset(w: BackendWasm, t: tf.TensorInfo): number {
  return (w.dataIdMap.get(t.dataId) as { memoryOffset: number }).memoryOffset;
}

function stridedMatMulKernel(): tf.KernelConfig {
  // The export, wrapped once per wasm module (a backend made again brings a new module).
  const calls = new WeakMap<WasmModule, (...args: unknown[]) => void>();
  return {
    kernelName: STRIDED_MATMUL,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend }) => {
      const w = backend as unknown as BackendWasm;
      const module = w.wasm as unknown as WasmModule;
      // a_id, a_shape, a_rank, b_id, b_shape, b_rank, transpose_a, transpose_b, out_id
      const call =
        calls.get(module) ??
        module.cwrap('BatchMatMul', null, [
          'number',
          'array',
          'number',
          'number',
          'array',
          'number',
          'number',
          'number',
          'number',
        ]);
      calls.set(module, call);
      const { a, b } = inputs as { a: tf.TensorInfo; b: tf.TensorInfo };
      const [batch, M, K] = a.shape as [number, number, number];
      const N = b.shape[2] as number;
      if (a.dtype !== 'float32' || b.dtype !== 'float32' || b.shape[0] !== batch || b.shape[1] !== K)
        throw new Error(`${STRIDED_MATMUL}: float32 [b, M, K]·[b, K, N] only, got ${a.shape}·${b.shape}`);
      const out = w.makeOutput([batch, M, N], 'float32');
      const [aOff, bOff, outOff] = [byteOffset(w, a), byteOffset(w, b), byteOffset(w, out)];
      const aShape = shape3(M, K);
      const bShape = shape3(K, N);
      const [aId, bId, outId] = VIEW_IDS;
      for (let i = 0; i < batch; i++) {
        module.tfjs.registerTensor(aId, M * K, aOff + 4 * i * M * K);
        module.tfjs.registerTensor(bId, K * N, bOff + 4 * i * K * N);
        module.tfjs.registerTensor(outId, M * N, outOff + 4 * i * M * N);
        call(aId, aShape, 3, bId, bShape, 3, false, false, outId);
        for (const id of VIEW_IDS) module.tfjs.disposeData(id);
      }
      return out;
    },
  };
}

/** Heap offset of a tensor's data, in float32 elements. */
export function at(w: BackendWasm, t: tf.TensorInfo): number {
  return byteOffset(w, t) / 4;
}

/** The ids as numbers, each checked against the table's N rows. */
function rowIds(w: BackendWasm, idx: tf.TensorInfo, N: number, kernel: string): Int32Array {
  if (idx.dtype !== 'int32') throw new Error(`${kernel}: int32 row ids only, got ${idx.dtype}`);
  const ids = w.typedArrayFromHeap(idx) as Int32Array;
  for (const id of ids)
    if (id < 0 || id >= N) throw new Error(`${kernel}: row id ${id} is outside the table's ${N} rows`);
  return ids;
}

const gatherRowsKernel: tf.KernelConfig = {
  kernelName: GATHER_ROWS,
  backendName: 'wasm',
  kernelFunc: ({ inputs, backend }) => {
    const w = backend as unknown as BackendWasm;
    const { x, idx } = inputs as { x: tf.TensorInfo; idx: tf.TensorInfo };
    const [N, D] = x.shape as [number, number];
    const ids = rowIds(w, idx, N, GATHER_ROWS).slice();
    const out = w.makeOutput([ids.length, D], 'float32');
    // After makeOutput: an allocation may grow the heap and detach earlier views.
    const heap = floats(w);
    const src = at(w, x);
    const dst = at(w, out);
    for (let i = 0; i < ids.length; i++) {
      const from = src + (ids[i] as number) * D;
      heap.copyWithin(dst + i * D, from, from + D);
    }
    return out;
  },
};

/** Rows `idx` [M] (int32) of `x` [N, D] -> [M, D] on wasm; no gradient of its own (rows.ts). */
export function gatherRowsWasm(x: tf.Tensor2D, idx: tf.Tensor1D): tf.Tensor2D {
  installWasmKernels();
  return tf.engine().runKernel(GATHER_ROWS, { x, idx }, {}) as tf.Tensor2D;
}

interface HeadShape {
  B: number;
  T: number;
  H: number;
}

/** The heap as floats (a fresh view: an allocation may have grown it). */
export function floats(w: BackendWasm): Float32Array {
  return new Float32Array((w.wasm as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer);
}

/**
 * Copies between the projection [B·T, 3D] at `flat` and q, k, v [B, H, T, K] at `heads`:
 * toHeads true reads the projection, false writes it.
 */
function moveHeads(
  heap: Float32Array,
  flat: number,
  heads: number[],
  { B, T, H }: HeadShape,
  K: number,
  toHeads: boolean,
): void {
  const D = H * K;
  for (let b = 0; b < B; b++)
    for (let t = 0; t < T; t++) {
      const row = flat + (b * T + t) * 3 * D;
      for (let part = 0; part < 3; part++) {
        const base = heads[part] as number;
        for (let h = 0; h < H; h++) {
          const f = row + part * D + h * K;
          const o = base + ((b * H + h) * T + t) * K;
          if (toHeads) for (let j = 0; j < K; j++) heap[o + j] = heap[f + j] as number;
          else for (let j = 0; j < K; j++) heap[f + j] = heap[o + j] as number;
        }
      }
    }
}

const splitHeadsKernel: tf.KernelConfig = {
  kernelName: SPLIT_HEADS,
  backendName: 'wasm',
  kernelFunc: ({ inputs, backend, attrs }) => {
    const w = backend as unknown as BackendWasm;
    const { x } = inputs as { x: tf.TensorInfo };
    const shape = attrs as unknown as HeadShape;
    const K = (x.shape[1] as number) / 3 / shape.H;
    const outs = [0, 1, 2].map(() => w.makeOutput([shape.B, shape.H, shape.T, K], 'float32'));
    moveHeads(
      floats(w),
      at(w, x),
      outs.map((o) => at(w, o)),
      shape,
      K,
      true,
    );
    return outs;
  },
};

const mergeHeadsKernel: tf.KernelConfig = {
  kernelName: MERGE_HEADS,
  backendName: 'wasm',
  kernelFunc: ({ inputs, backend }) => {
    const w = backend as unknown as BackendWasm;
    const { q, k, v } = inputs as Record<'q' | 'k' | 'v', tf.TensorInfo>;
    const [B, H, T, K] = q.shape as [number, number, number, number];
    const out = w.makeOutput([B * T, 3 * H * K], 'float32');
    moveHeads(floats(w), at(w, out), [at(w, q), at(w, k), at(w, v)], { B, T, H }, K, false);
    return out;
  },
};

/** [B·T, 3D] -> q, k, v, each [B, H, T, K], on wasm; differentiable (the gradient merges). */
export function splitHeadsWasm(
  qkv: tf.Tensor2D,
  B: number,
  T: number,
  H: number,
): [tf.Tensor4D, tf.Tensor4D, tf.Tensor4D] {
  installWasmKernels();
  const attrs = { B, T, H } as unknown as tf.NamedAttrMap;
  return tf.engine().runKernel(SPLIT_HEADS, { x: qkv }, attrs) as unknown as [
    tf.Tensor4D,
    tf.Tensor4D,
    tf.Tensor4D,
  ];
}

const leadingSumsKernel: tf.KernelConfig = {
  kernelName: LEADING_SUMS,
  backendName: 'wasm',
  kernelFunc: ({ inputs, backend }) => {
    const w = backend as unknown as BackendWasm;
    const { x } = inputs as { x: tf.TensorInfo };
    const [R, C] = x.shape as [number, number];
    const out = w.makeOutput([C], 'float32');
    const heap = floats(w);
    const from = at(w, x);
    // Each += on a Float32Array rounds to float32: the sum tfjs-wasm's loop makes, term by term.
    const acc = heap.subarray(at(w, out), at(w, out) + C).fill(0);
    for (let r = 0; r < R; r++) {
      const row = from + r * C;
      for (let c = 0; c < C; c++) acc[c] = (acc[c] as number) + (heap[row + c] as number);
    }
    return out;
  },
};

/** Column sums of x [R, C] -> [C] on wasm, in tf.sum(x, 0)'s order and rounding (no gradient). */
export function leadingSumsWasm(x: tf.Tensor2D): tf.Tensor1D {
  if (x.dtype !== 'float32') throw new Error(`${LEADING_SUMS}: float32 only, got ${x.dtype}`);
  installWasmKernels();
  return tf.engine().runKernel(LEADING_SUMS, { x }, {}) as tf.Tensor1D;
}

function sharedIdentityKernel(copy: tf.KernelFunc): tf.KernelConfig {
  return {
    kernelName: 'Identity',
    backendName: 'wasm',
    kernelFunc: (args) => {
      const x = (args.inputs as { x: tf.TensorInfo }).x;
      if (x.dtype === 'string') return copy(args);
      (args.backend as unknown as BackendWasm).incRef(x.dataId);
      return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
    },
  };
}

let installed = false;

/** Registers the kernels above on the wasm backend (once; a no-op when it is not registered). */
export function installWasmKernels(): void {
  if (installed) return;
  const identity = tf.getKernel('Identity', 'wasm');
  if (!identity) return;
  installed = true;
  tf.registerKernel(stridedMatMulKernel());
  tf.registerKernel(gatherRowsKernel);
  tf.registerKernel(splitHeadsKernel);
  tf.registerKernel(mergeHeadsKernel);
  tf.registerKernel(leadingSumsKernel);
  tf.registerGradient({
    kernelName: SPLIT_HEADS,
    gradFunc: (dys: tf.Tensor | tf.Tensor[]) => {
      const [q, k, v] = dys as tf.Tensor[];
      return {
        x: () => tf.engine().runKernel(MERGE_HEADS, { q, k, v } as tf.NamedTensorMap, {}) as tf.Tensor,
      };
    },
  });
  tf.unregisterKernel('Identity', 'wasm');
  tf.registerKernel(sharedIdentityKernel(identity.kernelFunc));
}
