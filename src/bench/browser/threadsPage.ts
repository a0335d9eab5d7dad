// The page of the WASM-threads measurement (src/bench/wasmThreadsBench.ts): starts the worker
// with `?threads=on|off` and exposes its one report as window.threadsReport.
import type { ThreadsReport } from './threads.worker.js';

const threads = new URLSearchParams(location.search).get('threads') === 'on';
const worker = new Worker(new URL('./threads.worker.ts', import.meta.url), { type: 'module' });
(window as unknown as { threadsReport: Promise<ThreadsReport | { error: string }> }).threadsReport =
  new Promise((resolve) => {
    worker.onmessage = (e: MessageEvent<ThreadsReport | { error: string }>) => resolve(e.data);
    worker.onerror = (e) => resolve({ error: e.message || 'worker error' });
  });
worker.postMessage({ threads });
