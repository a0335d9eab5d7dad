// The guided tour's state: open or not, the step shown, the replay speed (iterations per
// second; Infinity jumps), whether the recordings are loading or failed, and the replay position.
import type { StateCreator } from 'zustand';

export type TourLoad = 'idle' | 'loading' | 'ready' | 'failed';

export interface TourSlice {
  tourOpen: boolean;
  tourStep: number;
  tourSpeed: number;
  tourLoad: TourLoad;
  tourError: string | null;
  /** Iterations of the recording shown so far. */
  tourPosition: number;
  tourPlaying: boolean;
  setTour(patch: Partial<Omit<TourSlice, 'setTour'>>): void;
}

export const createTourSlice: StateCreator<TourSlice> = (set) => ({
  tourOpen: false,
  tourStep: 0,
  tourSpeed: 10,
  tourLoad: 'idle',
  tourError: null,
  tourPosition: 0,
  tourPlaying: false,
  setTour: (patch) => set(patch),
});
