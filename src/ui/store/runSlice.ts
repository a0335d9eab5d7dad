// The current run as the UI sees it (plain data; the trainer lives in the train worker): its
// status, progress, metric rows, events and sampled trajectories as they arrive in batches — or
// a stored run opened read-only from the run list (its rows, events and samples, nothing live).
import type { StateCreator } from 'zustand';
import type { AppState, RunSlice, RunStatus } from './types.js';

// The banner's type, declared with the slice in types.ts.
export type { RecoveryNote } from './types.js';

/** Samples kept in memory for browsing (older ones stay in IndexedDB, thinned). */
export const MAX_SAMPLES_IN_MEMORY = 300;

/** The run id under which a stored run is shown when opened read-only. */
export const openedRunId = (storedId: string) => `opened:${storedId}`;

const empty = {
  runStatus: 'idle' as RunStatus,
  runId: null,
  runName: '',
  runEnv: '',
  phase: null,
  compiled: null,
  iteration: 0,
  rows: [],
  events: [],
  samples: [],
  startInfo: null,
  summary: null,
  runError: null,
  openedRun: null,
  busy: false,
  recovery: null,
  runNotice: null,
};

/** Statuses in which the train worker holds a run the store must keep showing. */
const LIVE_STATUSES: ReadonlySet<RunStatus> = new Set(['starting', 'running', 'paused', 'stopping']);

export const createRunSlice: StateCreator<AppState, [], [], RunSlice> = (set, get) => ({
  ...empty,
  planned: 0,
  setRunStatus: (runStatus) => set({ runStatus }),
  setBusy: (busy) => set({ busy }),
  beginRun: (runId, runName, planned, runEnv) =>
    set({
      ...empty,
      runId,
      runName,
      planned,
      runEnv,
      runStatus: 'starting',
      phase: 'loading',
      sampleIndex: null,
      turnIndex: 0,
      // The last run's "jump to iteration" cursor (and the x-range it widened) goes with it.
      focusIteration: null,
      reasoningIteration: null,
    }),
  setStartInfo: (startInfo) => set({ startInfo }),
  addReports(rows, events, samples) {
    const s = get();
    const patch: Partial<RunSlice> = {};
    if (rows.length) patch.rows = [...s.rows, ...rows];
    // The counter never shows fewer iterations than the rows (a run's last batch may come
    // without a progress report after it, as when it is stopped).
    const next = (rows.at(-1)?.iteration ?? -1) + 1;
    if (next > s.iteration) patch.iteration = next;
    if (events.length) patch.events = [...s.events, ...events];
    if (samples.length) patch.samples = [...s.samples, ...samples].slice(-MAX_SAMPLES_IN_MEMORY);
    set(patch);
  },
  setProgress(iteration, planned, phase, compiled) {
    const patch: Partial<RunSlice> = { iteration, planned, phase, compiled: compiled ?? null };
    const st = get().runStatus;
    if (phase === 'paused' && st !== 'stopping') patch.runStatus = 'paused';
    if ((phase === 'running' || phase === 'compiling') && st !== 'stopping' && st !== 'paused')
      patch.runStatus = 'running';
    set(patch);
  },
  setRecovery: (recovery) => set({ recovery }),
  setRunNotice: (runNotice) => set({ runNotice }),
  rewindRun(iteration) {
    const s = get();
    set({
      iteration,
      rows: s.rows.filter((r) => r.iteration < iteration),
      events: s.events.filter((e) => e.iteration < iteration),
      samples: s.samples.filter((x) => x.iteration < iteration),
    });
  },
  finishRun: (summary) => set({ summary, runStatus: 'finished', phase: 'finished' }),
  // Not resumable where it failed (state after a failed iteration is not trusted); rows, checkpoint kept.
  failRun: (runError) => set({ runError, runStatus: 'failed' }),
  clearRun: () => set({ ...empty, focusIteration: null }),
  openRun(data) {
    if (LIVE_STATUSES.has(get().runStatus)) return false;
    const samples = data.samples.slice(-MAX_SAMPLES_IN_MEMORY);
    set({
      ...empty,
      runId: openedRunId(data.meta.id),
      runName: data.meta.name,
      runEnv: data.meta.config.env,
      runStatus: 'finished',
      iteration: Math.max(data.meta.iteration, (data.rows.at(-1)?.iteration ?? -1) + 1),
      planned: data.meta.config.iterations,
      rows: data.rows,
      events: data.events,
      samples,
      summary: data.meta.summary,
      openedRun: { id: data.meta.id, config: data.meta.config },
      sampleIndex: null,
      turnIndex: 0,
      focusIteration: null,
      rightTab: 'trajectory',
    });
    return true;
  },
});
