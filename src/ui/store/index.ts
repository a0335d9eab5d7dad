// One zustand store built from slices (plain data only: never tensors, models or Workers).
import { create } from 'zustand';
import { type BackendSlice, createBackendSlice } from './backendSlice.js';
import { type ConfigSlice, createConfigSlice } from './configSlice.js';
import { createRunSlice, type RunSlice } from './runSlice.js';

export type AppState = ConfigSlice & BackendSlice & RunSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createConfigSlice(...a),
  ...createBackendSlice(...a),
  ...createRunSlice(...a),
}));
