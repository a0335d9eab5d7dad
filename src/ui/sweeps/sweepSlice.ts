// Sweeps as the UI sees them: the dialog open or not, the stored sweeps, the one shown, and the
// progress of the sweep running in the train worker (one run at a time).
import type { StateCreator } from 'zustand';
import type { SweepRecord } from './sweepsDb.js';

export interface SweepProgress {
  sweepId: string;
  done: number;
  planned: number;
  current: string;
  iteration: number;
}

export interface SweepSlice {
  sweepsOpen: boolean;
  sweeps: SweepRecord[];
  selectedSweep: string | null;
  sweepProgress: SweepProgress | null;
  setSweeps(
    patch: Partial<Pick<SweepSlice, 'sweepsOpen' | 'sweeps' | 'selectedSweep' | 'sweepProgress'>>,
  ): void;
}

export const createSweepSlice: StateCreator<SweepSlice> = (set) => ({
  sweepsOpen: false,
  sweeps: [],
  selectedSweep: null,
  sweepProgress: null,
  setSweeps: (patch) => set(patch),
});
