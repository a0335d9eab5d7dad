// The compare view's content: the runs shown side by side (stored runs, a sweep cell's runs or
// the tour's two recordings), each with its config, its metric rows and its colour. Opened from
// the sweeps dialog, it takes that dialog's place and closing it goes back there (never one
// modal on top of another).
import type { StateCreator } from 'zustand';
import type { Config } from '../../core/config.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import type { SweepSlice } from './sweepSlice.js';

/** One run in the compare view. */
export interface CompareRun {
  id: string;
  name: string;
  color: string;
  config: Config;
  rows: MetricRow[];
  events?: TrainerEvent[];
}

/** Where closing the compare view returns to. */
export type CompareFrom = 'sweeps';

export interface CompareSlice {
  compareView: { title: string; runs: CompareRun[]; from?: CompareFrom } | null;
  /** Opens the view; `from: 'sweeps'` closes the sweeps dialog now and reopens it on close. */
  openCompare(title: string, runs: CompareRun[], from?: CompareFrom): void;
  closeCompare(): void;
}

export const createCompareSlice: StateCreator<
  CompareSlice & Pick<SweepSlice, 'sweepsOpen'>,
  [],
  [],
  CompareSlice
> = (set, get) => ({
  compareView: null,
  openCompare: (title, runs, from) =>
    set(
      from === 'sweeps'
        ? { compareView: { title, runs, from }, sweepsOpen: false }
        : { compareView: { title, runs } },
    ),
  closeCompare: () => {
    const back = get().compareView?.from === 'sweeps';
    set(back ? { compareView: null, sweepsOpen: true } : { compareView: null });
  },
});
