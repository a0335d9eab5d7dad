// What the GPU correctness checks report: one row per comparison of a fused path with tfjs's own
// (kernelCheck.ts for the kernels and the model, optimizerCheck.ts for the Adam step) and the
// report that gathers them. Its own file, so that the two checks share it without importing
// each other.

/** One comparison: largest absolute differences of values and of gradients. */
export interface KernelCheckRow {
  name: string;
  valueDiff: number;
  /** null for forward-only kernels. */
  gradDiff: number | null;
  ok: boolean;
}

export interface KernelCheckReport {
  backend: string;
  tolerance: number;
  rows: KernelCheckRow[];
  ok: boolean;
}
