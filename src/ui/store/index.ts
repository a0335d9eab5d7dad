// One zustand store built from slices (plain data only: never tensors, models or Workers).
import { create } from 'zustand';
import { createStudyBandsSlice } from '../charts/studyBandsSlice.js';
import { createCompareSlice } from '../compare/compareSlice.js';
import { createExplainSlice } from '../explain/explainSlice.js';
import { createFanoutSlice } from '../fanout/fanoutSlice.js';
import { createSweepSlice } from '../sweeps/sweepSlice.js';
import { createTourSlice } from '../tour/tourSlice.js';
import { createBackendSlice } from './backendSlice.js';
import { createConfigSlice } from './configSlice.js';
import { createLibrarySlice } from './librarySlice.js';
import { createRunSlice } from './runSlice.js';
import type { AppState } from './types.js';
import { createViewSlice } from './viewSlice.js';

export type { AppState };

export const useApp = create<AppState>()((...a) => ({
  ...createConfigSlice(...a),
  ...createBackendSlice(...a),
  ...createRunSlice(...a),
  ...createViewSlice(...a),
  ...createLibrarySlice(...a),
  ...createExplainSlice(...a),
  ...createCompareSlice(...a),
  ...createTourSlice(...a),
  ...createSweepSlice(...a),
  ...createFanoutSlice(...a),
  ...createStudyBandsSlice(...a),
}));
