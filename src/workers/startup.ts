// Start-up of tfjs in the train worker. With 'auto' and a hardware WebGPU adapter,
// a timed probe of one training step of the chosen model size on WebGPU and on WASM picks the
// faster, and its figures go into the backend report (the status line shows them). A software
// adapter (SwiftShader, a fallback or CPU device) is never timed and never chosen by 'auto':
// chooseBackend skips it for WASM and says why. CPU is the last resort and not timed (5–10× slower than WASM,
// bench/results.json). On WebGPU the shader pipelines of a training and a decode step are then
// compiled in parallel (WEBGPU_ENGINE_COMPILE_ONLY + checkCompileCompletionAsync), reporting
// progress; anything that runs on WebGPU must await `warmupSettled()` first, since a pipeline
// still compiling cannot be dispatched.

import { type ModelSize, modelConfig } from '../core/model/config.js';
import { type CompileProgress, precompileShaders } from '../core/model/precompile.js';
import { type BackendName, type BackendPreference, chooseBackend, type WasmPaths } from './backend.js';
import type { BackendReport, ProbeFigure, StartupStatus } from './backendInfo.js';
import { fastestBackend, PROBE_SHAPE, probeBackends } from './probe.js';

/** Steps timed per backend after its warm-up step. */
const PROBE_REPS = 2;
/** Context of the warm-up model (shader keys depend on ranks and a few sizes, not on this). */
const WARMUP_CONTEXT = 512;

let warmup: Promise<void> = Promise.resolve();

/** Resolves once no shader compilation is in flight (at once when none was started). */
export function warmupSettled(): Promise<void> {
  return warmup;
}

/** Compiles the pipelines of `size` on the active WebGPU backend, reporting progress. */
async function compileShaders(size: ModelSize, onStatus: (s: StartupStatus) => void): Promise<void> {
  const config = modelConfig(size, PROBE_SHAPE.vocab, WARMUP_CONTEXT);
  const shape = { rows: PROBE_SHAPE.rows, T: PROBE_SHAPE.T, decodeRows: PROBE_SHAPE.rows, promptTokens: 32 };
  const say = (p: CompileProgress) =>
    onStatus({ phase: 'compile', text: `Compiling WebGPU shaders ${p.done}/${p.total}`, ...p });
  const { pipelines, ms } = await precompileShaders(config, shape, say);
  onStatus({
    phase: 'done',
    text: `WebGPU shaders ready: ${pipelines} compiled in ${(ms / 1000).toFixed(1)} s`,
    done: pipelines,
    total: pipelines,
  });
}

/** Starts compiling in the background; `warmupSettled()` waits for it. Never rejects. */
function compileInBackground(size: ModelSize, onStatus: (s: StartupStatus) => void): void {
  warmup = compileShaders(size, onStatus).catch((err: Error) =>
    onStatus({
      phase: 'done',
      text: `Shader warm-up failed (they compile on first use): ${err.message}`,
      done: 0,
      total: 0,
    }),
  );
}

/** Times one training step of `size` on WebGPU (shaders compiled first) and WASM. */
async function probe(
  size: ModelSize,
  wasmPaths: WasmPaths | undefined,
  onStatus: (s: StartupStatus) => void,
): Promise<ProbeFigure[]> {
  const select = async (b: BackendName): Promise<string> => {
    const r = await chooseBackend(b, wasmPaths);
    if (r.backend !== b)
      return r.fallbacks.find((f) => f.backend === b)?.reason ?? `fell back to ${r.backend}`;
    onStatus({ phase: 'probe', text: `Timing one ${size} training step on ${b}…`, done: 0, total: 0 });
    if (b === 'webgpu') await compileShaders(size, onStatus);
    return '';
  };
  const results = await probeBackends([size], ['webgpu', 'wasm'], { select, reps: PROBE_REPS });
  return results.map((r) => ({
    backend: r.backend,
    msPerStep: r.msPerStep,
    firstStepMs: r.firstStepMs,
    reason: r.reason,
  }));
}

/**
 * Starts tfjs on `preference` ('auto': probe, see the header) and returns the report of the
 * backend really in use, with the probe's figures. On WebGPU the shader warm-up follows
 * (already done when the probe ran it). `onStatus` receives progress lines for the UI.
 */
export async function startTfjs(
  preference: BackendPreference,
  size: ModelSize,
  wasmPaths: WasmPaths | undefined,
  onStatus: (s: StartupStatus) => void,
): Promise<BackendReport> {
  await warmup;
  let report = await chooseBackend(preference, wasmPaths);
  if (preference !== 'auto' || report.backend !== 'webgpu') {
    if (report.backend === 'webgpu') compileInBackground(size, onStatus);
    return report;
  }
  const figures = await probe(size, wasmPaths, onStatus);
  const best = fastestBackend(
    figures.map((f) => ({ ...f, size })),
    size,
  );
  report = await chooseBackend(best ?? 'auto', wasmPaths);
  if (report.backend === 'webgpu' && best !== 'webgpu') compileInBackground(size, onStatus);
  onStatus({ phase: 'done', text: `Backend chosen by the probe: ${report.backend}`, done: 0, total: 0 });
  return {
    ...report,
    probe: { size, figures, note: best ? 'fastest one training step' : 'no backend ran the probe' },
  };
}
