// The UI side of the workers: typed requests to the train worker that resolve with the
// matching reply, a subscription for its run reports, and the env worker pool (size from
// navigator.hardwareConcurrency, at least 1) wired to the train worker by MessageChannels so
// env traffic never passes through the UI thread.
import type { Config } from '../core/config.js';
import type { BackendPreference, BackendReport } from './backendInfo.js';
import type {
  BaseChoice,
  FromTrainWorker,
  RunStartInfo,
  SelfCheckResult,
  ToEnvWorker,
  ToTrainWorker,
} from './protocol.js';

type Reply = Exclude<FromTrainWorker, { type: 'error' }>;
type Pending = { resolve: (m: Reply) => void; reject: (e: Error) => void };

/** Run reports: the train worker's messages that answer no request. */
export type RunReport = Extract<
  FromTrainWorker,
  { type: 'metrics' | 'events' | 'sample' | 'progress' | 'checkpoint' | 'finished' | 'runError' }
>;

/** Distributes the Omit over each member of a union. */
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** How many env workers to start: one per spare core, at least 1, at most 4. */
export function envPoolSize(hardwareConcurrency: number | undefined): number {
  const cores = hardwareConcurrency && hardwareConcurrency > 0 ? hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, cores - 2));
}

export class TrainClient {
  private readonly worker: Worker;
  private readonly envWorkers: Worker[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(r: RunReport) => void>();
  private envReady: Promise<void> | null = null;

  constructor() {
    this.worker = new Worker(new URL('./train.worker.ts', import.meta.url), { type: 'module' });
    this.worker.addEventListener('message', (e: MessageEvent<FromTrainWorker>) => this.receive(e.data));
    this.worker.addEventListener('error', (e) => {
      const err = new Error(`train worker failed: ${e.message || 'unknown error'}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
  }

  private receive(msg: FromTrainWorker): void {
    if (!('id' in msg)) {
      for (const l of this.listeners) l(msg);
      return;
    }
    const p = msg.id === null ? undefined : this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id as number);
    if (msg.type === 'error') p.reject(new Error(msg.message));
    else p.resolve(msg);
  }

  private request(msg: DistributiveOmit<ToTrainWorker, 'id'>, transfer: Transferable[] = []): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id } as ToTrainWorker, transfer);
    });
  }

  /** Listens to run reports; returns the unsubscribe function. */
  onReport(fn: (r: RunReport) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Starts tfjs on the preferred backend and reports the one really in use. */
  async init(backend: BackendPreference): Promise<BackendReport> {
    const r = await this.request({ type: 'init', backend });
    if (r.type !== 'ready') throw new Error(`unexpected reply ${r.type}`);
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
      this.envReady = this.request({ type: 'attachEnvPorts', ports }, ports).then(() => undefined);
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
  ): Promise<{ info: RunStartInfo; report: BackendReport }> {
    await this.ensureEnvWorkers();
    const r = await this.request({ type: 'start', runId, config, base, paused });
    if (r.type !== 'started') throw new Error(`unexpected reply ${r.type}`);
    return { info: r.info, report: r.report };
  }

  private async control(type: 'pause' | 'resume' | 'stepOne' | 'stop' | 'reset'): Promise<void> {
    const r = await this.request({ type });
    if (r.type !== 'ack') throw new Error(`unexpected reply ${r.type}`);
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
  stop(): Promise<void> {
    return this.control('stop');
  }
  reset(): Promise<void> {
    return this.control('reset');
  }

  /** Changes live settings of the running trainer (a marker appears on the charts). */
  async setLive(changes: Partial<Config>): Promise<void> {
    const r = await this.request({ type: 'setLive', changes });
    if (r.type !== 'ack') throw new Error(`unexpected reply ${r.type}`);
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

  dispose(): void {
    this.worker.terminate();
    for (const w of this.envWorkers) w.terminate();
  }
}
