// The UI side of the workers: typed requests to the train worker that resolve with the
// matching reply, a subscription for its run reports, and the env worker pool (size from
// navigator.hardwareConcurrency, at least 1) wired to the train worker by MessageChannels so
// env traffic never passes through the UI thread. Faults (issue 10): a `gpuFault` from the
// worker, an uncaught error in it, or a kill make the client replace its workers and continue
// the run from its last checkpoint (recovery.ts); requests made meanwhile wait for that.

import type { Config } from '../core/config.js';
import type { ModelSize } from '../core/model/config.js';
import type { FirstTurn } from '../core/rl/viewerSample.js';
import type { BackendPreference, BackendReport, StartupStatus } from './backendInfo.js';
import type {
  BaseChoice,
  FaultKind,
  FromTrainWorker,
  InjectedFault,
  ResumePoint,
  RunReport,
  RunStartInfo,
  SelfCheckResult,
  ToEnvWorker,
  ToTrainWorker,
} from './protocol.js';
import { RunRecovery } from './recovery.js';

export type { RunReport };

type Reply = Exclude<FromTrainWorker, { type: 'error' }>;
type Pending = { resolve: (m: Reply) => void; reject: (e: Error) => void };

/** Distributes the Omit over each member of a union. */
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** How many env workers to start: one per spare core, at least 1, at most 4. */
export function envPoolSize(hardwareConcurrency: number | undefined): number {
  const cores = hardwareConcurrency && hardwareConcurrency > 0 ? hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, cores - 2));
}

/** How long Stop waits for the iteration in flight before it restarts the worker to end the run. */
export const STOP_GRACE_MS = 5000;

export class TrainClient {
  private worker: Worker;
  private envWorkers: Worker[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(r: RunReport) => void>();
  private readonly startupListeners = new Set<(s: StartupStatus) => void>();
  private envReady: Promise<void> | null = null;
  private readonly recovery = new RunRecovery({
    restart: (backend) => this.restart(backend),
    start: (runId, config, base, paused, resume) => this.startNow(runId, config, base, paused, resume),
    emit: (r) => this.emit(r),
  });

  /** Runs this client's page runs side by side with (itself included): their schedules share the cores. */
  private readonly lanes: number;

  constructor(opts: { lanes?: number } = {}) {
    this.lanes = Math.max(1, opts.lanes ?? 1);
    this.worker = this.spawn();
  }

  /** A train worker whose messages and errors count only while it is the current one. */
  private spawn(): Worker {
    const w = new Worker(new URL('./train.worker.ts', import.meta.url), { type: 'module' });
    w.addEventListener('message', (e: MessageEvent<FromTrainWorker>) => {
      if (this.worker === w) this.receive(e.data);
    });
    w.addEventListener('error', (e) => {
      if (this.worker !== w) return;
      e.preventDefault();
      const message = `the train worker crashed: ${e.message || 'unknown error'}`;
      // A fresh worker that fails while being started fails that restart (no restart loop).
      if (this.recovery.recovering) this.rejectPending(new Error(message));
      else void this.recovery.fault('crash', message);
    });
    return w;
  }

  private rejectPending(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /** Terminates every worker and starts a fresh train worker on `backend` (env workers follow lazily). */
  private async restart(backend: BackendPreference): Promise<BackendReport> {
    this.worker.terminate();
    for (const w of this.envWorkers) w.terminate();
    this.envWorkers = [];
    this.envReady = null;
    this.rejectPending(new Error('the train worker was restarted after a fault: try again'));
    this.worker = this.spawn();
    const r = await this.send({ type: 'init', backend });
    if (r.type !== 'ready') throw new Error(`unexpected reply ${r.type}`);
    return r.report;
  }

  private emit(r: RunReport): void {
    this.recovery.observe(r);
    for (const l of this.listeners) l(r);
  }

  private receive(msg: FromTrainWorker): void {
    if (msg.type === 'startup') {
      for (const l of this.startupListeners) l(msg.status);
      return;
    }
    if (msg.type === 'gpuFault') {
      const kind: FaultKind = msg.kind === 'lost' ? 'gpu-lost' : 'gpu-error';
      void this.recovery.fault(kind, msg.message);
      return;
    }
    if (msg.type === 'secondWorkerFault') {
      void this.recovery.fault('second-worker', msg.message);
      return;
    }
    if (!('id' in msg)) {
      this.emit(msg);
      return;
    }
    const p = msg.id === null ? undefined : this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id as number);
    if (msg.type === 'error') p.reject(new Error(msg.message));
    else p.resolve(msg);
  }

  /** Sends now, to the current worker. */
  private send(msg: DistributiveOmit<ToTrainWorker, 'id'>, transfer: Transferable[] = []): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id } as ToTrainWorker, transfer);
    });
  }

  /** Sends once any recovery in progress is over, so it reaches the worker that holds the run. */
  private async request(
    msg: DistributiveOmit<ToTrainWorker, 'id'>,
    transfer: Transferable[] = [],
  ): Promise<Reply> {
    await this.recovery.settled();
    return this.send(msg, transfer);
  }

  /** Listens to run reports; returns the unsubscribe function. */
  onReport(fn: (r: RunReport) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Listens to start-up progress (backend probe, shader warm-up); returns the unsubscribe function. */
  onStartup(fn: (s: StartupStatus) => void): () => void {
    this.startupListeners.add(fn);
    return () => this.startupListeners.delete(fn);
  }

  /**
   * Starts tfjs on the preferred backend and reports the one really in use; with `size`, 'auto'
   * is chosen by the timed start-up probe and WebGPU shaders are compiled up front.
   */
  async init(backend: BackendPreference, size?: ModelSize): Promise<BackendReport> {
    const r = await this.request({ type: 'init', backend, size });
    if (r.type !== 'ready') throw new Error(`unexpected reply ${r.type}`);
    this.recovery.initialised(backend);
    return r.report;
  }

  /** Starts the env workers once and hands their ports to the train worker. */
  private ensureEnvWorkers(): Promise<void> {
    if (!this.envReady) {
      const n = envPoolSize(navigator.hardwareConcurrency);
      const ports: MessagePort[] = [];
      for (let k = 0; k < n; k++) {
        const w = new Worker(new URL('./env.worker.ts', import.meta.url), { type: 'module' });
        const channel = new MessageChannel();
        w.postMessage({ type: 'connect', port: channel.port1 } satisfies ToEnvWorker, [channel.port1]);
        ports.push(channel.port2);
        this.envWorkers.push(w);
      }
      this.envReady = this.send({ type: 'attachEnvPorts', ports }, ports).then(() => undefined);
    }
    return this.envReady;
  }

  /** Number of env workers started (0 before the first run). */
  get envWorkerCount(): number {
    return this.envWorkers.length;
  }

  /** Builds a run in the worker; it iterates at once unless `paused`. */
  async start(
    runId: string,
    config: Config,
    base: BaseChoice,
    paused = false,
    /** Continue from a stored checkpoint (a run a closed tab interrupted). */
    resume?: ResumePoint,
  ): Promise<{ info: RunStartInfo; report: BackendReport }> {
    await this.recovery.settled();
    const started = await this.startNow(runId, config, base, paused, resume);
    this.recovery.began(runId, config, base, paused, resume);
    return started;
  }

  private async startNow(
    runId: string,
    config: Config,
    base: BaseChoice,
    paused: boolean,
    resume?: ResumePoint,
  ): Promise<{ info: RunStartInfo; report: BackendReport }> {
    await this.ensureEnvWorkers();
    const r = await this.send({
      type: 'start',
      runId,
      config,
      base,
      paused,
      lanes: this.lanes,
      ...(resume ? { resume } : {}),
    });
    if (r.type !== 'started') throw new Error(`unexpected reply ${r.type}`);
    return { info: r.info, report: r.report };
  }

  private async control(type: 'pause' | 'resume' | 'stepOne' | 'stop' | 'reset'): Promise<void> {
    const r = await this.request({ type });
    if (r.type !== 'ack') throw new Error(`unexpected reply ${r.type}`);
    if (type === 'reset') this.recovery.ended();
  }

  /** Resolves after the iteration in flight has ended and its reports were sent. */
  pause(): Promise<void> {
    return this.control('pause');
  }
  resume(): Promise<void> {
    return this.control('resume');
  }
  /** Exactly one more iteration (the run must be paused). */
  stepOne(): Promise<void> {
    return this.control('stepOne');
  }
  /**
   * Ends the run after the iteration in flight; when that iteration has not ended within
   * STOP_GRACE_MS (minutes of shader compiling on a software adapter, a long step), ends it at
   * once instead by restarting the workers (recovery.ts `forceStop`). Says which it was.
   */
  async stop(): Promise<'stopped' | 'forced'> {
    const acked = this.control('stop').then(() => 'stopped' as const);
    acked.catch(() => {}); // rejected when the restart below replaces the worker
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), STOP_GRACE_MS);
    });
    const first = await Promise.race([acked, late]);
    clearTimeout(timer);
    if (first === 'stopped') return first;
    await this.recovery.forceStop();
    return 'forced';
  }
  reset(): Promise<void> {
    return this.control('reset');
  }

  /** Changes live settings of the running trainer (a marker appears on the charts). */
  async setLive(changes: Partial<Config>): Promise<void> {
    const r = await this.request({ type: 'setLive', changes });
    if (r.type !== 'ack') throw new Error(`unexpected reply ${r.type}`);
  }

  /**
   * The frozen base model's first turns on `seeds` at `iteration` for the reasoning panel; the
   * worker refuses while a run iterates.
   */
  async baseReasoning(
    config: Config,
    base: BaseChoice,
    seeds: number[],
    iteration: number,
  ): Promise<FirstTurn[][]> {
    const r = await this.request({ type: 'baseReasoning', config, base, seeds, iteration });
    if (r.type !== 'baseReasoning') throw new Error(`unexpected reply ${r.type}`);
    return r.groups;
  }

  /** Trains the same tiny transformer for `steps` Adam steps on each backend and compares losses. */
  async selfCheck(
    backends: BackendPreference[],
    steps = 3,
    seed = 1,
  ): Promise<{ results: SelfCheckResult[]; maxAbsDiff: number }> {
    const r = await this.request({ type: 'selfCheck', backends, steps, seed });
    if (r.type !== 'selfCheck') throw new Error(`unexpected reply ${r.type}`);
    return { results: r.results, maxAbsDiff: r.maxAbsDiff };
  }

  /** Test hook: injects a fault in the train worker (see InjectedFault). */
  async injectFault(fault: InjectedFault, count = 0): Promise<void> {
    const r = await this.request({ type: 'injectFault', fault, count });
    if (r.type !== 'ack') throw new Error(`unexpected reply ${r.type}`);
  }

  /** Test hook: terminates the train worker mid-whatever, as a browser killing it would. */
  killWorker(): Promise<void> {
    return this.recovery.fault('crash', 'the train worker was killed');
  }

  /** Terminates every worker; requests still waiting for a reply are rejected, never left hanging. */
  dispose(): void {
    this.worker.terminate();
    for (const w of this.envWorkers) w.terminate();
    this.rejectPending(new Error('the train worker was closed'));
  }
}
