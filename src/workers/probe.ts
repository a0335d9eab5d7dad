// Start-up backend probe (the backend is chosen by a timed probe of one training step for the
// chosen model size): for each backend that starts, one warm-up training step (shader
// compilation, buffer pools) and then timed steps of the real update on synthetic data; the
// fastest wins. Usable from the train worker: it needs only tfjs and a way to switch backends.
import * as tf from '@tensorflow/tfjs';
import type { ModelSize } from '../core/model/config.js';
import { type BackendName, chooseBackend, type WasmPaths } from './backend.js';
import { type StepShape, timeSteps } from './stepTiming.js';

export interface ProbeResult {
  backend: BackendName;
  size: ModelSize;
  /** Median ms of one training step after the warm-up; null when the backend did not start. */
  msPerStep: number | null;
  /** The warm-up step (compilation included). */
  firstStepMs: number | null;
  /** Why the backend was skipped or failed ('' when it ran). */
  reason: string;
}

export interface ProbeOptions {
  /** Work per step (default 8 rows × 64 tokens, vocabulary 128: a small real minibatch). */
  shape?: StepShape;
  /** Timed steps after the warm-up (default 2). */
  reps?: number;
  /** Switches tfjs to a backend; resolves to '' or the reason it could not (default chooseBackend). */
  select?: (backend: BackendName) => Promise<string>;
  wasmPaths?: WasmPaths;
  /** Called after each backend × size is measured (for a progress line). */
  onResult?: (r: ProbeResult) => void;
}

export const PROBE_SHAPE: StepShape = { rows: 8, T: 64, scoreRows: 8, vocab: 128 };

async function defaultSelect(backend: BackendName, wasmPaths?: WasmPaths): Promise<string> {
  const report = await chooseBackend(backend, wasmPaths);
  if (report.backend === backend) return '';
  return report.fallbacks.find((f) => f.backend === backend)?.reason ?? `fell back to ${report.backend}`;
}

/**
 * Times one training step per backend and size; backends that do not start are reported with
 * their reason. Leaves tfjs on the backend it found. Results per size are sorted fastest first.
 */
export async function probeBackends(
  sizes: readonly ModelSize[],
  backends: readonly BackendName[],
  options: ProbeOptions = {},
): Promise<ProbeResult[]> {
  const initial = tf.getBackend();
  const select = options.select ?? ((b: BackendName) => defaultSelect(b, options.wasmPaths));
  const shape = options.shape ?? PROBE_SHAPE;
  const results: ProbeResult[] = [];
  for (const backend of backends) {
    const reason = await select(backend).catch((err: Error) => err.message);
    for (const size of sizes) {
      let r: ProbeResult = { backend, size, msPerStep: null, firstStepMs: null, reason };
      if (reason === '') {
        try {
          const t = await timeSteps(size, shape, options.reps ?? 2, { score: false });
          r = { ...r, msPerStep: t.stepMs, firstStepMs: t.firstStepMs };
        } catch (err) {
          r.reason = `step failed: ${(err as Error).message}`;
        }
      }
      results.push(r);
      options.onResult?.(r);
    }
  }
  if (initial && tf.getBackend() !== initial) await tf.setBackend(initial);
  const rank = (r: ProbeResult) => r.msPerStep ?? Number.POSITIVE_INFINITY;
  return results.sort((a, b) => sizes.indexOf(a.size) - sizes.indexOf(b.size) || rank(a) - rank(b));
}

/** The fastest backend for `size` among probe results, or null when none ran. */
export function fastestBackend(results: readonly ProbeResult[], size: ModelSize): BackendName | null {
  const ran = results.filter((r) => r.size === size && r.msPerStep !== null);
  ran.sort((a, b) => (a.msPerStep as number) - (b.msPerStep as number));
  return ran[0]?.backend ?? null;
}
