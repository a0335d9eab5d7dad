// Backend detection and choice (DESIGN §8): WebGPU → WASM → CPU unless the user picks one.
// tfjs falls back silently when a backend fails to initialise, so after every setBackend we
// read tf.getBackend() and report the backend really in use and why any other was skipped.
// Works in a DedicatedWorker, a page and Node (where the caller installs navigator.gpu first).
import * as tf from '@tensorflow/tfjs';

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
  wasm: { simd: boolean; threads: boolean } | null;
  /** Why each backend before the chosen one was not used (empty when the first choice held). */
  fallbacks: { backend: BackendName; reason: string }[];
}

/** Where the WASM backend finds its .wasm binaries: a directory prefix or one URL per file. */
export type WasmPaths = string | Record<string, string>;

const ORDER: readonly BackendName[] = ['webgpu', 'wasm', 'cpu'];

interface GpuLike {
  requestAdapter(): Promise<{
    info?: Partial<Record<'vendor' | 'architecture' | 'device' | 'description', string>> & {
      isFallbackAdapter?: boolean;
    };
    isFallbackAdapter?: boolean;
  } | null>;
}

function gpu(): GpuLike | undefined {
  const nav = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator;
  return nav?.gpu;
}

/** Asks the WebGPU adapter for its identity; null when there is none. */
export async function probeAdapter(): Promise<{ adapter: AdapterReport | null; reason: string }> {
  const g = gpu();
  if (!g)
    return { adapter: null, reason: 'this browser exposes no navigator.gpu (WebGPU off or unsupported)' };
  try {
    const a = await g.requestAdapter();
    if (!a) return { adapter: null, reason: 'navigator.gpu.requestAdapter() returned no adapter' };
    const info = a.info ?? {};
    const adapter: AdapterReport = {
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      device: info.device ?? '',
      description: info.description ?? '',
      isFallback: Boolean(info.isFallbackAdapter ?? a.isFallbackAdapter ?? false),
    };
    return { adapter, reason: '' };
  } catch (err) {
    return { adapter: null, reason: `requestAdapter failed: ${(err as Error).message}` };
  }
}

/** A short human name for an adapter, e.g. "google swiftshader (software)". */
export function adapterLabel(a: AdapterReport | null): string {
  if (!a) return 'none';
  const name =
    [a.vendor, a.architecture, a.description || a.device].filter(Boolean).join(' ') || 'unknown adapter';
  return a.isFallback ? `${name} (software)` : name;
}

async function loadWasm(paths: WasmPaths | undefined): Promise<void> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  if (paths !== undefined) wasm.setWasmPaths(paths as never);
}

/** Detects what this runtime offers, without switching backends. */
export async function detectCapabilities(wasmPaths?: WasmPaths): Promise<Capabilities> {
  const { adapter, reason } = await probeAdapter();
  let wasm: Capabilities['wasm'];
  if (typeof WebAssembly !== 'object') {
    wasm = { available: false, simd: false, threads: false, reason: 'WebAssembly is not available' };
  } else {
    await loadWasm(wasmPaths);
    const simd = Boolean(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'));
    const threads = Boolean(await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'));
    wasm = { available: true, simd, threads, reason: '' };
  }
  return { webgpu: { available: adapter !== null, adapter, reason }, wasm, cpu: { available: true } };
}

async function trySet(name: BackendName, wasmPaths: WasmPaths | undefined): Promise<string> {
  try {
    if (name === 'webgpu') await import('@tensorflow/tfjs-backend-webgpu');
    if (name === 'wasm') await loadWasm(wasmPaths);
    if (!tf.findBackendFactory(name)) return `the ${name} backend is not registered in this runtime`;
    const ok = await tf.setBackend(name);
    await tf.ready();
    const actual = tf.getBackend();
    if (!ok || actual !== name) return `tf.setBackend('${name}') fell back to '${actual}'`;
    return '';
  } catch (err) {
    return `${name} failed to initialise: ${(err as Error).message}`;
  }
}

/**
 * Switches tfjs to the preferred backend, or the first that works in the order
 * WebGPU → WASM → CPU, and reports the backend really in use with the reason for each skip.
 */
export async function chooseBackend(
  preference: BackendPreference = 'auto',
  wasmPaths?: WasmPaths,
): Promise<BackendReport> {
  const caps = await detectCapabilities(wasmPaths);
  const candidates = preference === 'auto' ? ORDER : [preference, ...ORDER.filter((b) => b !== preference)];
  const fallbacks: BackendReport['fallbacks'] = [];
  for (const name of candidates) {
    let reason = '';
    if (name === 'webgpu' && !caps.webgpu.available) reason = caps.webgpu.reason;
    else if (name === 'wasm' && !caps.wasm.available) reason = caps.wasm.reason;
    else reason = await trySet(name, wasmPaths);
    if (reason === '') {
      return {
        backend: name,
        requested: preference,
        adapter: caps.webgpu.adapter,
        wasm: caps.wasm.available ? { simd: caps.wasm.simd, threads: caps.wasm.threads } : null,
        fallbacks,
      };
    }
    fallbacks.push({ backend: name, reason });
  }
  throw new Error(`no tfjs backend could start: ${fallbacks.map((f) => f.reason).join('; ')}`);
}

/** One line for the status bar: "webgpu on google swiftshader (software)" plus any fallback. */
export function describeBackend(r: BackendReport): string {
  const where = r.backend === 'webgpu' ? ` on ${adapterLabel(r.adapter)}` : '';
  const extras =
    r.backend === 'wasm' && r.wasm
      ? ` (SIMD ${r.wasm.simd ? 'on' : 'off'}, threads ${r.wasm.threads ? 'on' : 'off'})`
      : '';
  const fell =
    r.fallbacks.length > 0
      ? ` — skipped ${r.fallbacks.map((f) => `${f.backend}: ${f.reason}`).join('; ')}`
      : '';
  return `${r.backend}${where}${extras}${fell}`;
}
