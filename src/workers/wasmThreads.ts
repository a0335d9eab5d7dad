// The threaded SIMD build of tfjs-wasm in a bundled module worker (issue 22). tfjs starts its
// pthread workers from a blob holding `wasmFactoryThreadedSimd.toString()` — the factory as the
// bundler rewrote it, whose free variables (the minifier's `e` for emscripten's `_scriptDir`)
// exist only in the bundle: "e is not defined" in every pthread. And under the app's CSP
// (script-src 'self') a pthread may not import a blob: script at all. So the untouched glue
// script is served as its own file (Vite `?url`: copied as an asset, not bundled) and the
// pthread workers made here are told to import that URL instead of the blob: a Worker subclass
// rewrites the one `{cmd: 'load'}` message emscripten sends each pthread. Same build, same
// .wasm: the pthreads run the code the bundle's main thread runs, from the original file.
//
// Thread count: tfjs caps XNNPACK's pool at navigator.hardwareConcurrency / 2 (it assumes two
// hardware threads per core), which leaves a 2-vCPU machine on one thread. While the backend
// starts, the count emscripten reads is doubled, so the pool gets `threadsWanted()` threads.
//
// Without SharedArrayBuffer (a page that is not cross-origin isolated: COOP/COEP missing) the
// single-threaded SIMD build runs, and the reason goes into the backend report's status line.
import * as tf from '@tensorflow/tfjs';
import threadedGlue from '@tensorflow/tfjs-backend-wasm/wasm-out/tfjs-backend-wasm-threaded-simd.js?url';

/** What the train worker's WASM backend runs with. */
export interface WasmThreading {
  /** The threaded build is allowed (its real thread count is known after start-up). */
  threads: boolean;
  /** Threads asked for (1 when `threads` is false). */
  wanted: number;
  /** Why the single-threaded build runs ('' when threaded). */
  reason: string;
}

/**
 * Why this context cannot (or, below 4 cores, should not) run the threaded build; '' when it
 * can. `anyCores` drops the core-count rule (the bench's threads-on side measures 2 cores too).
 */
export function threadsUnavailable(
  g: {
    SharedArrayBuffer?: unknown;
    crossOriginIsolated?: boolean;
  },
  anyCores = false,
): string {
  if (typeof g.SharedArrayBuffer !== 'function')
    return 'no SharedArrayBuffer (the page is not cross-origin isolated: COOP/COEP headers missing)';
  if (g.crossOriginIsolated === false)
    return 'the page is not cross-origin isolated (COOP/COEP headers missing)';
  if (typeof (g as { Worker?: unknown }).Worker !== 'function') return 'this worker cannot start workers';
  // On 2 cores the env workers and the page need the second one: measured here, an echo-trap
  // iteration with 2 pthreads under load took ~2–3× as long as single-threaded.
  const hc = (g as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  if (!anyCores && typeof hc === 'number' && hc < 4)
    return `only ${hc} logical cores: the env workers and the page need them (threads from 4 cores)`;
  return '';
}

/** Threads for XNNPACK: the logical cores, at least tfjs's own default, at most 4 below 8 cores. */
export function threadsWanted(hardwareConcurrency: number): number {
  const hc = Math.max(1, Math.floor(hardwareConcurrency || 1));
  return Math.min(8, Math.max(Math.floor(hc / 2), Math.min(hc, 4)));
}

interface LoadMessage {
  cmd?: unknown;
  urlOrBlob?: unknown;
}

/** Makes the pthread workers started in this scope import the glue from `url`. */
export function installPthreadLoader(scope: { Worker: typeof Worker }, url: string): void {
  const Base = scope.Worker;
  if ((Base as { starpoPthreads?: boolean }).starpoPthreads) return;
  class PthreadWorker extends Base {
    static starpoPthreads = true;
    override postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
      const m = message as LoadMessage | null;
      const msg = m && m.cmd === 'load' && m.urlOrBlob instanceof Blob ? { ...m, urlOrBlob: url } : message;
      if (transfer === undefined) super.postMessage(msg);
      else super.postMessage(msg, transfer as Transferable[]);
    }
  }
  scope.Worker = PthreadWorker;
}

/**
 * Prepares the WASM backend of this worker before it starts: the threaded build where the
 * context allows it, else the single-threaded one. Call after importing tfjs-backend-wasm and
 * before the first tf.setBackend('wasm'); `force: false` turns threads off, `force: true` turns
 * them on whatever the core count where the context allows them (the bench's two sides).
 * Returns what was chosen and a function to call once the backend has started.
 */
export async function prepareWasmThreads(force?: boolean): Promise<WasmThreading & { started(): void }> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const g = globalThis as unknown as {
    SharedArrayBuffer?: unknown;
    crossOriginIsolated?: boolean;
    Worker: typeof Worker;
    navigator?: { hardwareConcurrency?: number };
    location?: { href: string };
  };
  const unavailable =
    force === false ? 'turned off for this measurement' : threadsUnavailable(g, force === true);
  if (unavailable !== '') {
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    return { threads: false, wanted: 1, reason: unavailable, started: () => {} };
  }
  installPthreadLoader(g, new URL(threadedGlue, g.location?.href).href);
  const hc = g.navigator?.hardwareConcurrency ?? 1;
  const wanted = threadsWanted(hc);
  wasm.setThreadsCount(wanted);
  // tfjs halves the count it reads; let it read twice the real one until the backend starts.
  const nav = g.navigator as object | undefined;
  let restore = () => {};
  if (nav && wanted > Math.floor(hc / 2)) {
    Object.defineProperty(nav, 'hardwareConcurrency', { value: 2 * hc, configurable: true });
    restore = () => {
      delete (nav as { hardwareConcurrency?: number }).hardwareConcurrency;
    };
  }
  // The count is read when the backend first starts: keep the override until it has.
  return { threads: true, wanted, reason: '', started: () => tf.findBackend('wasm') && restore() };
}

/** Threads XNNPACK really runs with (1 when single-threaded or not started). */
export async function wasmThreadCount(): Promise<number> {
  try {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    return wasm.getThreadsCount();
  } catch {
    return 1;
  }
}
