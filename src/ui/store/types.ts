// The store's shape: the state and actions of every slice, and AppState, all of them together.
// The slices of the store's own (config, backend, run, view, library) are declared here, apart
// from the code that creates them, so that each can read the whole state through AppState without
// an import circle; the features' slices (charts, compare, explain, fanout, sweeps, tour) declare
// their own and see only their own state. index.ts builds the one store from them.
import type { Config, ConfigKey, FieldError } from '../../core/config.js';
import type { RunData, RunMeta } from '../../core/files/runFile.js';
import type { RunSummary } from '../../core/metrics/detector.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { BaseModelEntry } from '../../core/model/modelIndex.js';
import type { FieldSource } from '../../core/resolve.js';
import type { SampledTrajectory, TrainerEvent } from '../../core/rl/trainer.js';
import type { BackendReport, StartupStatus } from '../../workers/backendInfo.js';
import type { FaultKind, RunPhase, RunStartInfo, SelfCheckResult } from '../../workers/protocol.js';
import type { CompareSlice } from './compareSlice.js';
import type { ExplainSlice } from './explainSlice.js';
import type { FanoutSlice } from './fanoutSlice.js';
import type { StudyBandsSlice } from './studyBandsSlice.js';
import type { SweepSlice } from './sweepSlice.js';
import type { TourSlice } from './tourSlice.js';

// The setup (configSlice.ts).
export interface ConfigSlice {
  /** The last runnable config: what Start, Step and sweeps use. */
  config: Config;
  /** The resolved value of every field, valid or not (what the form shows). */
  values: Config;
  /** Which layer each value came from (the form marks the base model's). */
  sources: Record<ConfigKey, FieldSource>;
  /** The preset chosen (null: none). */
  preset: string | null;
  /** The fields the user set (form, URL hash), applied last. */
  edits: Partial<Config>;
  /** Text typed into a field that does not parse, per field. */
  drafts: Record<string, string>;
  /** Field-named problems; Start is blocked while any exist. */
  configErrors: FieldError[];
  /** Sets one field from form text. */
  setField(key: string, text: string): void;
  /** Applies a preset: its values over the base model's, the user's earlier edits dropped. */
  applyPreset(name: string): FieldError[];
  /** Sets several fields at once, as edits; returns the errors (empty when runnable). */
  applyOverrides(overrides: Partial<Config>): FieldError[];
  /**
   * Takes the setup from a URL hash: its valid fields become edits over the start preset, every
   * bad one is named in the returned errors (the caller shows them and leaves the hash as typed).
   */
  /**
   * Loads a link's setup over the start preset (`keep`: edits that fields absent from the link, or
   * refused by it, keep — a hash edited in the open tab); returns the refused fields' errors.
   */
  loadHash(hash: string, keep?: Partial<Config>): FieldError[];
  /** Drops the edits that do not change the setup (a link read before the base models were known). */
  pruneEdits(): void;
  /** Resolves again (the base models, the base choice or the stored runs changed). */
  resolveSetup(): void;
}

// The backend in use (backendSlice.ts).
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

// The run shown (runSlice.ts).
export type RunStatus = 'idle' | 'starting' | 'running' | 'paused' | 'stopping' | 'finished' | 'failed';

/** A fault the workers were restarted for (issue 10), as the banner tells it. */
export interface RecoveryNote {
  state: 'recovering' | 'recovered';
  fault: FaultKind;
  message: string;
  /** Where the run continues (its last checkpoint; 0 without one). */
  iteration: number;
  /** The backend it continues on (null while recovering). */
  backend: string | null;
  /** Whether a run was restarted (false: the workers only, between runs). */
  hadRun: boolean;
}

export interface RunSlice {
  runStatus: RunStatus;
  runId: string | null;
  runName: string;
  /** The env id of the run (the setup form may change after it ends). */
  runEnv: string;
  phase: RunPhase | null;
  /** While compiling: the GPU pipelines compiled so far. */
  compiled: number | null;
  iteration: number;
  planned: number;
  rows: MetricRow[];
  events: TrainerEvent[];
  samples: SampledTrajectory[];
  startInfo: RunStartInfo | null;
  summary: RunSummary | null;
  runError: string | null;
  /** The stored run shown read-only (opened from the run list), else null. */
  openedRun: { id: string; config: Config } | null;
  /** A request (pause, step, …) is in flight: buttons wait for its reply. */
  busy: boolean;
  /** The latest worker restart after a fault, until dismissed. */
  recovery: RecoveryNote | null;
  setRecovery(note: RecoveryNote | null): void;
  /** What the run's worker said of a run that goes on unchanged in its numbers, until dismissed. */
  runNotice: string | null;
  setRunNotice(notice: string | null): void;
  /** Drops rows, events and samples from `iteration` on (the run continues from a checkpoint). */
  rewindRun(iteration: number): void;
  setRunStatus(status: RunStatus): void;
  setBusy(busy: boolean): void;
  beginRun(runId: string, name: string, planned: number, env: string): void;
  setStartInfo(info: RunStartInfo): void;
  /** Appends a batch; the iteration counter goes up to the last row's iteration + 1 if below it. */
  addReports(
    rows: readonly MetricRow[],
    events: readonly TrainerEvent[],
    samples: readonly SampledTrajectory[],
  ): void;
  setProgress(iteration: number, planned: number, phase: RunPhase, compiled?: number): void;
  finishRun(summary: RunSummary): void;
  failRun(message: string): void;
  clearRun(): void;
  /** Shows a stored run read-only as the current run (charts, banner, viewer); not while one trains. */
  openRun(data: RunData): boolean;
}

// What the user looks at (viewSlice.ts).
export type RightTab = 'trajectory' | 'play' | 'runs';

export interface Overlay {
  id: string;
  name: string;
  color: string;
  rows: MetricRow[];
}

export interface ViewSlice {
  rightTab: RightTab;
  focusIteration: number | null;
  /** Index into the run's samples; null follows the latest. */
  sampleIndex: number | null;
  turnIndex: number;
  overlays: Overlay[];
  compareIds: string[];
  notice: { kind: 'info' | 'error'; text: string } | null;
  /**
   * A run the last tab left running or paused, found at load: its id, name, the iteration it
   * reached and its last checkpoint's (null: none saved, so it cannot be resumed).
   */
  interrupted: {
    id: string;
    name: string;
    iteration: number;
    checkpointAt: number | null;
    /** The checkpoint carries the trainer's state, so the resumed run writes the rows it would have. */
    exact: boolean;
  } | null;
  setInterrupted(i: ViewSlice['interrupted']): void;
  /** The iteration whose reasoning across inputs is open (null: the panel is closed). */
  reasoningIteration: number | null;
  openReasoning(iteration: number | null): void;
  setRightTab(tab: RightTab): void;
  jumpTo(iteration: number | null): void;
  setSampleIndex(i: number | null): void;
  setTurnIndex(i: number): void;
  addOverlay(o: Omit<Overlay, 'color'>): void;
  removeOverlay(id: string): void;
  toggleCompare(id: string): void;
  setNotice(n: ViewSlice['notice']): void;
}

// What is stored and shipped (librarySlice.ts).
export interface LibrarySlice {
  storedRuns: RunMeta[];
  baseModels: BaseModelEntry[];
  /** False until the models index has been read (or failed): Start waits for it. */
  baseModelsReady: boolean;
  /**
   * 'auto' = the shipped model for the env and size, else untrained; '' = untrained (random
   * init); `model:<id>`; `run:<runId>` = a stored run's checkpoint.
   */
  baseChoice: string;
  setStoredRuns(runs: RunMeta[]): void;
  setBaseModels(models: BaseModelEntry[]): void;
  setBaseChoice(choice: string): void;
}

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
