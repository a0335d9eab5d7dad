// Backend reports as plain data, and how to say them in one line. No tfjs import here, so the
// UI thread can show a report without loading tfjs (the train worker owns it).

export type BackendName = 'webgpu' | 'wasm' | 'cpu';
export type BackendPreference = BackendName | 'auto';

/** What the GPU adapter says about itself (plain data for the status line). */
export interface AdapterReport {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** A software adapter (SwiftShader): correct but slow. */
  isFallback: boolean;
}

export interface Capabilities {
  webgpu: { available: boolean; adapter: AdapterReport | null; reason: string };
  wasm: { available: boolean; simd: boolean; threads: boolean; reason: string };
  cpu: { available: true };
}

export interface BackendReport {
  /** The backend tf.getBackend() reports after initialisation. */
  backend: BackendName;
  requested: BackendPreference;
  adapter: AdapterReport | null;
  wasm: {
    simd: boolean;
    threads: boolean;
    /** XNNPACK's threads once started (train worker; absent elsewhere). */
    threadCount?: number;
    /** Why the single-threaded build runs, e.g. no SharedArrayBuffer ('' or absent: threaded). */
    threadsReason?: string;
  } | null;
  /** Why each backend before the chosen one was not used (empty when the first choice held). */
  fallbacks: { backend: BackendName; reason: string }[];
  /** The start-up probe for 'auto' (startup.ts): one training step timed per backend. */
  probe?: { size: string; figures: ProbeFigure[]; note: string };
}

/** One backend's time for one training step in the start-up probe. */
export interface ProbeFigure {
  backend: BackendName;
  /** Median ms of the timed steps; null when the backend did not run. */
  msPerStep: number | null;
  /** The first step (compilation and allocation included). */
  firstStepMs: number | null;
  /** Why it did not run ('' when it did). */
  reason: string;
}

/** A progress line of the train worker's start-up: the probe, then the shader warm-up. */
export interface StartupStatus {
  phase: 'probe' | 'compile' | 'done';
  text: string;
  /** Pipelines compiled and requested (compile phase; 0 otherwise). */
  done: number;
  total: number;
}

/** The probe's figures in one phrase: "probe (nano): webgpu 41 ms/step, wasm 130 ms/step". */
export function describeProbe(p: NonNullable<BackendReport['probe']>): string {
  if (p.figures.length === 0) return `probe (${p.size}) ${p.note}`;
  const each = p.figures.map((f) =>
    f.msPerStep === null
      ? `${f.backend} did not run (${f.reason})`
      : `${f.backend} ${Math.round(f.msPerStep)} ms/step`,
  );
  return `probe (${p.size}, one training step): ${each.join(', ')}`;
}

/** Names a software renderer or a CPU device: SwiftShader, llvmpipe, WARP, "Basic Render", "CPU". */
const SOFTWARE_NAME = /swiftshader|llvmpipe|lavapipe|softpipe|warp|basic render|software|\bcpu\b/i;

/**
 * Whether an adapter renders in software: it says it is a fallback adapter, or its vendor,
 * architecture, device or description names a software renderer or a CPU device (such
 * an adapter never wins over WASM; it is there for correctness checks only).
 */
export function isSoftwareAdapter(a: AdapterReport | null): boolean {
  if (!a) return false;
  return a.isFallback || SOFTWARE_NAME.test([a.vendor, a.architecture, a.device, a.description].join(' '));
}

/** A short human name for an adapter, e.g. "google swiftshader (software)". */
export function adapterLabel(a: AdapterReport | null): string {
  if (!a) return 'none';
  const name =
    [a.vendor, a.architecture, a.description || a.device].filter(Boolean).join(' ') || 'unknown adapter';
  return isSoftwareAdapter(a) ? `${name} (software)` : name;
}

/**
 * The backend in a few plain words, for the status line: where the training runs, and that the
 * GPU was passed over when it was (describeBackend gives the reasons, on demand).
 */
export function plainBackend(r: BackendReport): string {
  const gpuSkipped = r.backend !== 'webgpu' && r.fallbacks.some((f) => f.backend === 'webgpu');
  const base =
    r.backend === 'webgpu'
      ? `Training on your GPU (WebGPU${isSoftwareAdapter(r.adapter) ? ', a software renderer: slow' : ''})`
      : r.backend === 'wasm'
        ? 'Training on your processor (WebAssembly)'
        : 'Training on your processor in plain JavaScript (the slowest way)';
  return gpuSkipped ? `${base}; the GPU was not used` : base;
}

/** One line for the status bar: "webgpu on google swiftshader (software)" plus any fallback. */
export function describeBackend(r: BackendReport): string {
  const where = r.backend === 'webgpu' ? ` on ${adapterLabel(r.adapter)}` : '';
  const w = r.wasm;
  const threads = !w
    ? ''
    : w.threads
      ? `threads on${w.threadCount !== undefined ? ` (${w.threadCount})` : ''}`
      : `threads off${w.threadsReason ? `: ${w.threadsReason}` : ''}`;
  const extras = r.backend === 'wasm' && w ? ` (SIMD ${w.simd ? 'on' : 'off'}, ${threads})` : '';
  const fell =
    r.fallbacks.length > 0
      ? ` — skipped ${r.fallbacks.map((f) => `${f.backend}: ${f.reason}`).join('; ')}`
      : '';
  const probe = r.probe ? ` · ${describeProbe(r.probe)}` : '';
  return `${r.backend}${where}${extras}${fell}${probe}`;
}
