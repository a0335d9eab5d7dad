// The UI side of the train worker: typed requests that resolve with the matching reply.
import type { BackendPreference, BackendReport } from './backendInfo.js';
import type { FromTrainWorker, SelfCheckResult, ToTrainWorker } from './protocol.js';

type Reply = Exclude<FromTrainWorker, { type: 'error' }>;
type Pending = { resolve: (m: Reply) => void; reject: (e: Error) => void };

/** Distributes the Omit over each member of a union. */
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

export class TrainClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

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
    const p = msg.id === null ? undefined : this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id as number);
    if (msg.type === 'error') p.reject(new Error(msg.message));
    else p.resolve(msg);
  }

  private request(msg: DistributiveOmit<ToTrainWorker, 'id'>): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id } as ToTrainWorker);
    });
  }

  /** Starts tfjs on the preferred backend and reports the one really in use. */
  async init(backend: BackendPreference): Promise<BackendReport> {
    const r = await this.request({ type: 'init', backend });
    if (r.type !== 'ready') throw new Error(`unexpected reply ${r.type}`);
    return r.report;
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
  }
}
