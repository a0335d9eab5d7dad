// Backend detection and choice: WebGPU → WASM → CPU unless the user picks one.
// tfjs falls back silently when a backend fails to initialise, so after every setBackend we
// read tf.getBackend() and report the backend really in use and why any other was skipped.
// Works in a DedicatedWorker, a page and Node (where the caller installs navigator.gpu first).
import * as tf from '@tensorflow/tfjs';
import { installWasmKernels } from '../core/model/wasmKernels.js';
import type {
  AdapterReport,
  BackendName,
  BackendPreference,
  BackendReport,
  Capabilities,
} from './backendInfo.js';
import { adapterLabel, isSoftwareAdapter } from './backendInfo.js';

export type { AdapterReport, BackendName, BackendPreference, BackendReport, Capabilities };

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
    if (name === 'wasm') installWasmKernels();
    return '';
  } catch (err) {
    return `${name} failed to initialise: ${(err as Error).message}`;
  }
}

/**
 * Switches tfjs to the preferred backend, or the first that works in the order
 * WebGPU → WASM → CPU, and reports the backend really in use with the reason for each skip.
 * 'auto' skips a software WebGPU adapter (SwiftShader, a fallback or CPU device); forcing
 * 'webgpu' still uses it.
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
    else if (name === 'webgpu' && preference === 'auto' && isSoftwareAdapter(caps.webgpu.adapter))
      reason = `${adapterLabel(caps.webgpu.adapter)} renders in software (correct but slow): not chosen over WASM`;
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
