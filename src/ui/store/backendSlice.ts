// Which tfjs backend the train worker really runs on, and the cross-check result.
import type { StateCreator } from 'zustand';
import type { AppState, BackendSlice } from './types.js';

export const createBackendSlice: StateCreator<AppState, [], [], BackendSlice> = (set, get) => ({
  backendStatus: 'starting',
  backendReport: null,
  backendError: null,
  startupStatus: null,
  selfCheck: { running: false, results: [], maxAbsDiff: null, error: null },
  setBackendReady: (report) => {
    set({ backendStatus: 'ready', backendReport: report, backendError: null });
    // The memory check of the setup depends on the backend in use.
    get().resolveSetup();
  },
  setBackendFailed: (message) => set({ backendStatus: 'failed', backendError: message }),
  setSelfCheck: (patch) => set({ selfCheck: { ...get().selfCheck, ...patch } }),
  setStartupStatus: (status) => set({ startupStatus: status }),
});
