// The matrix products' FLOPs of a stretch of work, counted where every op runs: the engine's
// runKernel (tfjs ops, their gradients and this project's strided kernel all go through it), each
// product's 2·batch·M·K·N stamped with the time it ran, so a trainer iteration's FLOPs can be cut
// at its phase boundaries (trainerBench.ts). Element-wise work is left out, as in roofline.ts.
import * as tf from '@tensorflow/tfjs';
import { STRIDED_MATMUL } from '../core/model/wasmKernels.js';

interface KernelEngine {
  runKernel(name: string, inputs: Record<string, tf.TensorInfo>, attrs: Record<string, unknown>): unknown;
}

const PRODUCTS = new Set(['BatchMatMul', '_FusedMatMul', STRIDED_MATMUL]);

/** 2·batch·M·K·N of one product kernel's inputs (a [..., M, K] or transposed, b likewise). */
export function productFlops(inputs: Record<string, tf.TensorInfo>, attrs: Record<string, unknown>): number {
  const a = inputs.a?.shape;
  const b = inputs.b?.shape;
  if (!a || !b || a.length < 2 || b.length < 2) return 0;
  const ta = attrs.transposeA === true;
  const tb = attrs.transposeB === true;
  const M = a[a.length - (ta ? 1 : 2)] as number;
  const K = a[a.length - (ta ? 2 : 1)] as number;
  const N = b[b.length - (tb ? 2 : 1)] as number;
  const batch = Math.max(
    a.slice(0, -2).reduce((x, y) => x * y, 1),
    b.slice(0, -2).reduce((x, y) => x * y, 1),
  );
  return 2 * batch * M * K * N;
}

/** A meter installed on the engine until `stop`: every product's time and FLOPs. */
export class FlopMeter {
  private readonly events: { t: number; flops: number }[] = [];
  private readonly engine = tf.engine() as unknown as KernelEngine;
  private readonly original = this.engine.runKernel;

  constructor() {
    const events = this.events;
    const original = this.original;
    this.engine.runKernel = function (this: KernelEngine, name, inputs, attrs) {
      if (PRODUCTS.has(name)) events.push({ t: performance.now(), flops: productFlops(inputs, attrs ?? {}) });
      return original.call(this, name, inputs, attrs);
    };
  }

  /** FLOPs of the products that ran in [from, to). */
  between(from: number, to: number): number {
    return this.events.filter((e) => e.t >= from && e.t < to).reduce((s, e) => s + e.flops, 0);
  }

  /** Forgets what was counted (between iterations). */
  clear(): void {
    this.events.length = 0;
  }

  stop(): void {
    this.engine.runKernel = this.original;
  }
}
