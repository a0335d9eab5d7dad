// Which tfjs backend the train worker really runs on, and the cross-check result.
import type { StateCreator } from 'zustand';
import type { BackendReport, StartupStatus } from '../../workers/backendInfo.js';
import type { SelfCheckResult } from '../../workers/protocol.js';
import type { AppState } from './index.js';

export type BackendStatus = 'starting' | 'ready' | 'failed';

export interface BackendSlice {
  backendStatus: BackendStatus;
  backendReport: BackendReport | null;
  backendError: string | null;
  /** The latest start-up progress line (backend probe, shader warm-up); null before any. */
  startupStatus: StartupStatus | null;
  selfCheck: {
    running: boolean;
    results: SelfCheckResult[];
    maxAbsDiff: number | null;
    error: string | null;
  };
  setBackendReady(report: BackendReport): void;
  setBackendFailed(message: string): void;
  setSelfCheck(patch: Partial<BackendSlice['selfCheck']>): void;
  setStartupStatus(status: StartupStatus): void;
}

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
