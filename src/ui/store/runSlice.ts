// The state of the current run as the UI sees it (plain data; the trainer lives in the worker).
import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';

export type RunStatus = 'idle' | 'running' | 'paused' | 'stopped';

export interface RunSlice {
  runStatus: RunStatus;
  iteration: number;
  setRunStatus(status: RunStatus): void;
}

export const createRunSlice: StateCreator<AppState, [], [], RunSlice> = (set) => ({
  runStatus: 'idle',
  iteration: 0,
  setRunStatus: (runStatus) => set({ runStatus }),
});
