// One zustand store built from slices (plain data only: never tensors, models or Workers).
import { create } from 'zustand';
import { createBackendSlice } from './backendSlice.js';
import { createCompareSlice } from './compareSlice.js';
import { createConfigSlice } from './configSlice.js';
import { createExplainSlice } from './explainSlice.js';
import { createFanoutSlice } from './fanoutSlice.js';
import { createLibrarySlice } from './librarySlice.js';
import { createRunSlice } from './runSlice.js';
import { createStudyBandsSlice } from './studyBandsSlice.js';
import { createSweepSlice } from './sweepSlice.js';
import { createTourSlice } from './tourSlice.js';
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
