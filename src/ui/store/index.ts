// One zustand store built from slices (plain data only: never tensors, models or Workers).
import { create } from 'zustand';
import { createStudyBandsSlice, type StudyBandsSlice } from '../charts/studyBandsSlice.js';
import { type CompareSlice, createCompareSlice } from '../compare/compareSlice.js';
import { createExplainSlice, type ExplainSlice } from '../explain/explainSlice.js';
import { createFanoutSlice, type FanoutSlice } from '../fanout/fanoutSlice.js';
import { createSweepSlice, type SweepSlice } from '../sweeps/sweepSlice.js';
import { createTourSlice, type TourSlice } from '../tour/tourSlice.js';
import { type BackendSlice, createBackendSlice } from './backendSlice.js';
import { type ConfigSlice, createConfigSlice } from './configSlice.js';
import { createLibrarySlice, type LibrarySlice } from './librarySlice.js';
import { createRunSlice, type RunSlice } from './runSlice.js';
import { createViewSlice, type ViewSlice } from './viewSlice.js';

export type AppState = ConfigSlice &
  BackendSlice &
  RunSlice &
  ViewSlice &
  LibrarySlice &
  ExplainSlice &
  CompareSlice &
  TourSlice &
  SweepSlice &
  FanoutSlice &
  StudyBandsSlice;

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
