// The threaded WASM set-up without a browser: when the threaded build is allowed, how many
// threads it asks for, the pthread 'load' message rewritten to the served glue URL (and nothing
// else touched), and the status line's words for threads on and off.
import { describe, expect, it } from 'vitest';
import { type BackendReport, describeBackend } from './backendInfo.js';
import { installPthreadLoader, threadsUnavailable, threadsWanted } from './wasmThreads.js';

describe('threaded WASM set-up', () => {
  it('needs SharedArrayBuffer, cross-origin isolation and nested workers', () => {
    const ok = { SharedArrayBuffer, crossOriginIsolated: true, Worker: class {} };
    expect(threadsUnavailable(ok)).toBe('');
    expect(threadsUnavailable({ ...ok, navigator: { hardwareConcurrency: 2 } } as never)).toMatch(
      /only 2 logical cores/,
    );
    expect(threadsUnavailable({ ...ok, navigator: { hardwareConcurrency: 8 } } as never)).toBe('');
    expect(threadsUnavailable({ ...ok, navigator: { hardwareConcurrency: 2 } } as never, true)).toBe('');
    expect(threadsUnavailable({ ...ok, SharedArrayBuffer: undefined })).toMatch(/no SharedArrayBuffer/);
    expect(threadsUnavailable({ ...ok, crossOriginIsolated: false })).toMatch(/not cross-origin isolated/);
    expect(threadsUnavailable({ SharedArrayBuffer, crossOriginIsolated: true })).toMatch(
      /cannot start workers/,
    );
  });

  it('asks for the logical cores on small machines, tfjs’s own half on large ones', () => {
    expect([1, 2, 3, 4, 6, 8, 12, 16, 32].map(threadsWanted)).toEqual([1, 2, 3, 4, 4, 4, 6, 8, 8]);
    expect(threadsWanted(0)).toBe(1);
  });

  it("rewrites only the pthread 'load' message's blob to the glue URL", () => {
    const sent: unknown[] = [];
    class FakeWorker {
      postMessage(m: unknown, t?: unknown) {
        sent.push(t === undefined ? m : [m, t]);
      }
    }
    const scope = { Worker: FakeWorker as unknown as typeof Worker };
    installPthreadLoader(scope, 'http://x/assets/glue.js');
    installPthreadLoader(scope, 'http://x/other.js'); // once only
    const w = new (scope.Worker as unknown as new () => FakeWorker)();
    const blob = new Blob(['var WasmBackendModuleThreadedSimd = function () {}']);
    w.postMessage({ cmd: 'load', urlOrBlob: blob, handlers: ['x'] });
    w.postMessage({ cmd: 'run', urlOrBlob: blob });
    w.postMessage({ cmd: 'load', urlOrBlob: 'http://y/already.js' }, []);
    expect(sent[0]).toEqual({ cmd: 'load', urlOrBlob: 'http://x/assets/glue.js', handlers: ['x'] });
    expect((sent[1] as { urlOrBlob: unknown }).urlOrBlob).toBe(blob);
    expect(sent[2]).toEqual([{ cmd: 'load', urlOrBlob: 'http://y/already.js' }, []]);
  });

  it('says threads on with their count, or off with the reason, in the status line', () => {
    const r: BackendReport = {
      backend: 'wasm',
      requested: 'wasm',
      adapter: null,
      wasm: { simd: true, threads: true, threadCount: 2, threadsReason: '' },
      fallbacks: [],
    };
    expect(describeBackend(r)).toBe('wasm (SIMD on, threads on (2))');
    const off = {
      ...r,
      wasm: { simd: true, threads: false, threadCount: 1, threadsReason: 'no SharedArrayBuffer' },
    };
    expect(describeBackend(off)).toBe('wasm (SIMD on, threads off: no SharedArrayBuffer)');
    expect(describeBackend({ ...r, wasm: { simd: true, threads: false } })).toBe(
      'wasm (SIMD on, threads off)',
    );
  });
});
