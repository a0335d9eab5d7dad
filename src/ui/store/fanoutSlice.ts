// Seeds side by side as the UI sees them: the panel open or not, and one lane per (seed, learner
// or frozen control) with its state, rows and verdict as they arrive. Plain data only.
import type { StateCreator } from 'zustand';
import type { RunSummary } from '../../core/metrics/detector.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { TrainerEvent } from '../../core/rl/trainer.js';

export type LaneState = 'queued' | 'running' | 'finished' | 'failed' | 'stopped';

export interface Lane {
  seed: number;
  /** The frozen control (lr 0) on the same seed, beside the learner. */
  frozen: boolean;
  state: LaneState;
  iteration: number;
  planned: number;
  rows: MetricRow[];
  events: TrainerEvent[];
  summary: RunSummary | null;
  error: string | null;
}

export interface FanoutSlice {
  fanoutOpen: boolean;
  lanes: Lane[];
  /** True from Start until every lane has finished or failed. */
  fanoutRunning: boolean;
  setFanout(patch: Partial<Pick<FanoutSlice, 'fanoutOpen' | 'lanes' | 'fanoutRunning'>>): void;
  /** Applies `patch` to lane `i`. */
  patchLane(i: number, patch: Partial<Lane>): void;
}

export const createFanoutSlice: StateCreator<FanoutSlice> = (set, get) => ({
  fanoutOpen: false,
  lanes: [],
  fanoutRunning: false,
  setFanout: (patch) => set(patch),
  patchLane(i, patch) {
    set({ lanes: get().lanes.map((l, k) => (k === i ? { ...l, ...patch } : l)) });
  },
});
