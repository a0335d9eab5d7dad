// What is stored and shipped: the runs in IndexedDB (their records) and the base models listed
// in public/models/index.json, with the one chosen for the next run.
import type { StateCreator } from 'zustand';
import type { RunMeta } from '../runs/runFile.js';
import type { AppState } from './index.js';

/** One entry of public/models/index.json. */
export interface BaseModelEntry {
  id: string;
  env: string;
  size: string;
  manifest: string;
  blob: string;
  greedySuccess?: number;
  sampledSuccess?: number;
}

export interface LibrarySlice {
  storedRuns: RunMeta[];
  baseModels: BaseModelEntry[];
  /**
   * 'auto' = the env's first shipped model, else untrained; '' = untrained (random init);
   * `model:<id>`; `run:<runId>` = a stored run's checkpoint.
   */
  baseChoice: string;
  setStoredRuns(runs: RunMeta[]): void;
  setBaseModels(models: BaseModelEntry[]): void;
  setBaseChoice(choice: string): void;
}

export const createLibrarySlice: StateCreator<AppState, [], [], LibrarySlice> = (set) => ({
  storedRuns: [],
  baseModels: [],
  baseChoice: 'auto',
  setStoredRuns: (storedRuns) => set({ storedRuns }),
  setBaseModels: (baseModels) => set({ baseModels }),
  setBaseChoice: (baseChoice) => set({ baseChoice }),
});
