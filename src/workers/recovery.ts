// Worker restarts after faults (issue 10), on the UI side: the client tells this module about the
// run it started and every report it gets; on a fault — the WebGPU device lost or failing, the
// train worker crashed or killed, or a run's second worker lost with its critic — it has the host
// replace the workers (on WASM after a GPU fault), builds the run again from its last checkpoint
// at that checkpoint's iteration (from the base at 0 when there is none yet), and says so to the
// listeners. A run that faults again MAX_RESTARTS times without one new iteration in between
// gets a run error instead.
import type { Config } from '../core/config.js';
import { detectorOptionsFor, EchoTrapDetector } from '../core/metrics/detector.js';
import type { MetricRow } from '../core/metrics/keys.js';
import type { BackendPreference, BackendReport } from './backendInfo.js';
import {
  type BaseChoice,
  type FaultKind,
  isGpuFault,
  type ResumePoint,
  type RunReport,
  type RunStartInfo,
} from './protocol.js';

/** Restarts in a row, without an iteration done in between, before the run is given up. */
export const MAX_RESTARTS = 3;

/** What the recovery needs from the client. */
export interface RecoveryHost {
  /** Terminates the workers and starts fresh ones on `backend`; resolves to the backend in use. */
  restart(backend: BackendPreference): Promise<BackendReport>;
  /** Builds the run again in the fresh worker. */
  start(
    runId: string,
    config: Config,
    base: BaseChoice,
    paused: boolean,
    resume?: ResumePoint,
  ): Promise<{ info: RunStartInfo; report: BackendReport }>;
  /** Hands a report to the client's listeners. */
  emit(report: RunReport): void;
}

interface TrackedRun {
  runId: string;
  config: Config;
  base: BaseChoice;
  paused: boolean;
  rows: MetricRow[];
  checkpoint: { iteration: number; manifest: unknown; blob: Uint8Array } | null;
  restarts: number;
}

/** Follows the active run and recovers it after a fault. */
export class RunRecovery {
  private run: TrackedRun | null = null;
  private inFlight: Promise<void> | null = null;
  /** The backend the workers were last started on (for a restart with no run). */
  private backend: BackendPreference = 'auto';

  constructor(private readonly host: RecoveryHost) {}

  /** The worker was initialised on `backend`. */
  initialised(backend: BackendPreference): void {
    this.backend = backend;
  }

  /** A run was started in the worker (a new one replaces any tracked run). */
  began(runId: string, config: Config, base: BaseChoice, paused: boolean, resume?: ResumePoint): void {
    // A run resumed from a stored checkpoint recovers from that checkpoint until a newer one.
    this.run = {
      runId,
      config,
      base,
      paused,
      rows: resume ? [...resume.rows] : [],
      checkpoint: resume
        ? { iteration: resume.iteration, manifest: resume.manifest, blob: resume.blob }
        : null,
      restarts: 0,
    };
  }

  /** The run was reset: nothing to recover any more. */
  ended(): void {
    this.run = null;
  }

  /** Resolves once a recovery in progress is over (at once when none is). */
  settled(): Promise<void> {
    return this.inFlight ?? Promise.resolve();
  }

  /** Whether a recovery is in progress. */
  get recovering(): boolean {
    return this.inFlight !== null;
  }

  /** Sees every run report before the listeners do. */
  observe(r: RunReport): void {
    const run = this.run;
    if (!run || r.runId !== run.runId) return;
    switch (r.type) {
      case 'reports':
        run.rows.push(...r.rows);
        if (r.rows.length > 0) run.restarts = 0;
        return;
      case 'checkpoint':
        run.checkpoint = { iteration: r.iteration, manifest: r.manifest, blob: r.blob };
        return;
      case 'progress':
        if (r.phase === 'paused') run.paused = true;
        else if (r.phase === 'running' || r.phase === 'compiling') run.paused = false;
        return;
      case 'finished':
        this.run = null;
        return;
      default:
        return;
    }
  }

  /** A fault: restarts the workers and continues the run. Concurrent calls join the first. */
  fault(kind: FaultKind, message: string): Promise<void> {
    if (!this.inFlight) {
      this.inFlight = this.recover(kind, message).finally(() => {
        this.inFlight = null;
      });
    }
    return this.inFlight;
  }

  private async recover(kind: FaultKind, message: string): Promise<void> {
    const run = this.run;
    const gpu = isGpuFault(kind);
    const backend: BackendPreference = gpu ? 'wasm' : (run?.config.backend ?? this.backend);
    this.host.emit({ type: 'recovering', runId: run?.runId ?? null, fault: kind, message });
    let report: BackendReport;
    try {
      report = await this.host.restart(backend);
      this.backend = backend;
    } catch (err) {
      if (run) this.giveUp(run, `the train worker could not be restarted: ${(err as Error).message}`);
      return;
    }
    if (!run) {
      this.host.emit({ type: 'recovered', runId: null, fault: kind, message, iteration: 0, report });
      return;
    }
    run.restarts++;
    if (run.restarts > MAX_RESTARTS) {
      this.giveUp(run, `${MAX_RESTARTS} restarts in a row without progress (last fault: ${message})`);
      return;
    }
    const cp = run.checkpoint;
    const iteration = cp?.iteration ?? 0;
    run.rows = run.rows.filter((row) => row.iteration < iteration);
    const resume: ResumePoint | undefined = cp
      ? { iteration, manifest: cp.manifest, blob: cp.blob, rows: run.rows }
      : undefined;
    const config: Config = gpu ? { ...run.config, backend: 'wasm' } : run.config;
    try {
      const started = await this.host.start(run.runId, config, run.base, run.paused, resume);
      run.config = config;
      this.host.emit({
        type: 'recovered',
        runId: run.runId,
        fault: kind,
        message,
        iteration,
        report: started.report,
      });
    } catch (err) {
      this.giveUp(run, `the run could not be restarted after "${message}": ${(err as Error).message}`);
    }
  }

  /**
   * Ends the tracked run without its worker (Stop when the iteration in flight does not end in
   * time, e.g. minutes of shader compiling): fresh workers on the run's backend, and the run
   * finished as stopped with the rows it had sent, its summary judged from them on this side.
   * Its last checkpoint stays where the page stored it.
   */
  async forceStop(): Promise<void> {
    const run = this.run;
    this.run = null;
    // The old workers are gone as restart() begins; the run ends now, not once the fresh worker
    // is up (starting WebGPU on a software adapter takes a while).
    const restarted = this.host.restart(run?.config.backend ?? this.backend);
    if (run) {
      const detector = new EchoTrapDetector(detectorOptionsFor(run.config));
      for (const row of run.rows) detector.update(row);
      this.host.emit({ type: 'finished', runId: run.runId, summary: detector.summary(), reason: 'stopped' });
    }
    await restarted;
  }

  private giveUp(run: TrackedRun, message: string): void {
    if (this.run === run) this.run = null;
    this.host.emit({ type: 'runError', runId: run.runId, message });
  }
}
