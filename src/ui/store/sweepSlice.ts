// Sweeps as the UI sees them: the dialog open or not, the stored sweeps, the one shown, and the
// progress of the sweep running in the train worker (one run at a time).
import type { StateCreator } from 'zustand';
import type { SweepAxis, SweepRunFiles } from '../../core/files/sweepBundle.js';

/** A stored sweep as its IndexedDB record holds it (ui/sweeps/sweepsDb.ts). */
export type SweepStatus = 'running' | 'finished' | 'stopped' | 'imported' | 'interrupted';

export interface SweepRecord {
  id: string;
  name: string;
  createdAt: number;
  status: SweepStatus;
  axes: SweepAxis[];
  seeds: number[];
  /** Runs planned (0 for imports). */
  planned: number;
  runs: SweepRunFiles[];
  /** Why it stopped before its plan was done (absent when it finished or was cancelled). */
  reason?: string;
}

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
