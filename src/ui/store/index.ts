// One zustand store built from slices (plain data only: never tensors, models or Workers).
import { create } from 'zustand';
import { type BackendSlice, createBackendSlice } from './backendSlice.js';
import { type ConfigSlice, createConfigSlice } from './configSlice.js';
import { createLibrarySlice, type LibrarySlice } from './librarySlice.js';
import { createRunSlice, type RunSlice } from './runSlice.js';
import { createViewSlice, type ViewSlice } from './viewSlice.js';

export type AppState = ConfigSlice & BackendSlice & RunSlice & ViewSlice & LibrarySlice;

export const useApp = create<AppState>()((...a) => ({
  ...createConfigSlice(...a),
  ...createBackendSlice(...a),
  ...createRunSlice(...a),
  ...createViewSlice(...a),
  ...createLibrarySlice(...a),
}));
