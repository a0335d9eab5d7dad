// What is stored and shipped: the runs in IndexedDB (their records) and the base models listed
// in public/models/index.json, with the one chosen for the next run. Each change re-resolves
// the setup, since the base model's episode settings are one of its layers.
import type { StateCreator } from 'zustand';
import type { BaseModelEntry } from '../../core/model/modelIndex.js';
import { EPISODE_KEYS } from '../../core/resolve.js';
import type { AppState, LibrarySlice } from './types.js';

export type { BaseModelEntry };

export const createLibrarySlice: StateCreator<AppState, [], [], LibrarySlice> = (set, get) => ({
  storedRuns: [],
  baseModels: [],
  baseModelsReady: false,
  baseChoice: 'auto',
  setStoredRuns: (storedRuns) => {
    set({ storedRuns });
    get().resolveSetup();
  },
  setBaseModels: (baseModels) => {
    set({ baseModels, baseModelsReady: true });
    get().resolveSetup();
    get().pruneEdits();
  },
  setBaseChoice: (baseChoice) => {
    // Another base was trained for other episodes: show its settings, not the old edits.
    const s = get();
    const edits = { ...s.edits };
    for (const k of EPISODE_KEYS) delete edits[k];
    set({ baseChoice, edits });
    get().resolveSetup();
  },
});
