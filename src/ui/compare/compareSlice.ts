// The compare view's content: the runs shown side by side (stored runs, a sweep cell's runs or
// the tour's two recordings), each with its config, its metric rows and its colour.
import type { StateCreator } from 'zustand';
import type { Config } from '../../core/config.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import type { AppState } from '../store/index.js';

/** One run in the compare view. */
export interface CompareRun {
  id: string;
  name: string;
  color: string;
  config: Config;
  rows: MetricRow[];
  events?: TrainerEvent[];
}

export interface CompareSlice {
  compareView: { title: string; runs: CompareRun[] } | null;
  openCompare(title: string, runs: CompareRun[]): void;
  closeCompare(): void;
}

export const createCompareSlice: StateCreator<AppState, [], [], CompareSlice> = (set) => ({
  compareView: null,
  openCompare: (title, runs) => set({ compareView: { title, runs } }),
  closeCompare: () => set({ compareView: null }),
});
