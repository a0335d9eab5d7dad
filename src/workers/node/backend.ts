// tfjs backends in Node (the CLI, benchmarks, tests), the Node side of workers/backend.ts: cpu,
// wasm (the .wasm binaries from the installed package) and webgpu through the `webgpu` package
// (Dawn), whose navigator.gpu must exist before tfjs-backend-webgpu is imported. Reports the real
// backend as the browser does.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { type BackendPreference, type BackendReport, chooseBackend } from '../backend.js';

/** Directory of the WASM backend's binaries, with a trailing slash. */
export function nodeWasmDir(): string {
  return `${dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'))}/`;
}

async function installNavigatorGpu(): Promise<void> {
  const g = globalThis as { navigator?: { gpu?: unknown } };
  if (g.navigator?.gpu) return;
  const { create, globals } = (await import('webgpu')) as unknown as {
    create(flags: string[]): unknown;
    globals: Record<string, unknown>;
  };
  Object.assign(globalThis, globals);
  Object.defineProperty(globalThis, 'navigator', {
    value: { gpu: create([]) },
    configurable: true,
    writable: true,
  });
}

/** Starts tfjs on `name` in Node; 'auto' here means wasm (a GPU is opt-in in Node). */
export async function setupNodeBackend(name: BackendPreference): Promise<BackendReport> {
  if (name === 'webgpu') await installNavigatorGpu();
  const report = await chooseBackend(name === 'auto' ? 'wasm' : name, nodeWasmDir());
  if (name !== 'auto' && report.backend !== name) {
    throw new Error(`backend ${name} is not available: ${report.fallbacks.map((f) => f.reason).join('; ')}`);
  }
  return report;
}
