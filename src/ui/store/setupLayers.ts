// The setup's layers as core/resolve.ts takes them, read from the store: the chosen preset, the
// user's edits, the chosen base model's layer and the memory budget of the backend a run would
// use. The config slice resolves with them; sweeps resolve each cell with them.
import { BACKEND_MEMORY_BYTES } from '../../core/model/memory.js';
import { type BaseLayer, layersEnv, type MemoryBudget } from '../../core/resolve.js';
import { baseLayerOf, chooseBase } from './baseChoice.js';
import type { AppState } from './types.js';

export interface SetupLayers {
  preset: string | null;
  edits: AppState['edits'];
  base: BaseLayer | null;
  memory: MemoryBudget;
}

/** The layers of `s`'s setup, with `preset` and `edits` in place of the stored ones. */
export function setupLayers(s: AppState, preset = s.preset, edits = s.edits): SetupLayers {
  const { env, modelSize } = layersEnv({ preset, edits });
  const base = baseLayerOf(chooseBase(s.baseChoice, env, modelSize, s.baseModels, s.storedRuns));
  // 'auto' keeps the backend in use (WASM until the worker says).
  const chosen = edits.backend ?? 'auto';
  const backend = chosen === 'auto' ? (s.backendReport?.backend ?? 'wasm') : chosen;
  return { preset, edits, base, memory: { backend, bytes: BACKEND_MEMORY_BYTES[backend] } };
}
