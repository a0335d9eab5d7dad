// The critic in a second worker (issue 40): the messages between a run's thread and the critic's
// worker, and RemoteCritic, the CriticHost that sends them. Whatever carries them — a Web Worker
// in the page, a worker_threads Worker in Node — is a CriticPort. Messages are taken in order on
// the other side (criticService.ts), so a call that needs no answer (a step, a snapshot) is only
// posted, and a failure in one comes back with the next call that waits for an answer.
import * as tf from '@tensorflow/tfjs';
import type { AdamState } from '../model/adamState.js';
import type { ModelConfig } from '../model/config.js';
import { type Model, modelVariables } from '../model/params.js';
import type {
  CriticHost,
  CriticHostFactory,
  CriticStepSettings,
  CriticSteps,
  CriticStepsReport,
} from './criticHost.js';
import type { Minibatch } from './microBatch.js';

/** Run → critic worker. Those with an `id` get one answer with that id. */
export type ToCritic =
  | { op: 'init'; id: number; config: ModelConfig; weights: Float32Array[]; lr: number; epsilon: number }
  | { op: 'load'; weights: Float32Array[] }
  | { op: 'values'; id: number; rows: number[][]; maxRows: number }
  | { op: 'begin'; settings: CriticStepSettings }
  | { op: 'step'; mb: Minibatch; microRows: number }
  | { op: 'finish'; id: number }
  | { op: 'finite'; id: number }
  | { op: 'save' }
  | { op: 'restore' }
  | { op: 'readAdam'; id: number }
  | { op: 'writeAdam'; state: AdamState }
  | { op: 'weights'; id: number }
  | { op: 'dispose'; id: number };

/** Critic worker → run: the answer to request `id`, or why it failed. */
export type FromCritic = { id: number; value?: unknown; error?: string };

/** What carries the messages (a Web Worker, a worker_threads Worker, or a test's pair). */
export interface CriticPort {
  post(msg: ToCritic): void;
  /** Answers, and `error` when the worker itself fails (every waiting call is then refused). */
  listen(onAnswer: (msg: FromCritic) => void, onError: (err: Error) => void): void;
  terminate(): void;
}

/** The weights of `model` in its `names` order, copied out. */
export function weightValues(model: Model): Promise<Float32Array[]> {
  return Promise.all(
    modelVariables(model).map(async (v) => Float32Array.from((await v.data()) as Float32Array)),
  );
}

/** The critic in a second worker, behind `port`; `model` is this thread's copy of its weights. */
export class RemoteCritic implements CriticHost {
  readonly inThread = false;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private failed: Error | null = null;
  /** Messages go out in call order, a weight read (`init`, `push`) holding back those after it. */
  private outbox: Promise<void> = Promise.resolve();

  constructor(
    readonly model: Model,
    private readonly port: CriticPort,
    adam: { lr: number; epsilon: number },
  ) {
    port.listen(
      (msg) => this.answer(msg),
      (err) => this.fail(err),
    );
    void this.request(async (id) => ({
      op: 'init',
      id,
      config: model.config,
      weights: await weightValues(model),
      ...adam,
    })).catch(() => {}); // a failed start refuses the calls that follow
  }

  private answer(msg: FromCritic): void {
    const w = this.waiting.get(msg.id);
    if (!w) return;
    this.waiting.delete(msg.id);
    if (msg.error !== undefined) w.reject(new Error(`critic worker: ${msg.error}`));
    else w.resolve(msg.value);
  }

  private fail(err: Error): void {
    this.failed = new Error(`critic worker: ${err.message}`);
    for (const w of this.waiting.values()) w.reject(this.failed);
    this.waiting.clear();
  }

  private request<T>(make: (id: number) => ToCritic | Promise<ToCritic>): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.send(() => make(id));
    });
  }

  private send(msg: ToCritic | (() => ToCritic | Promise<ToCritic>)): void {
    this.outbox = this.outbox
      .then(async () => {
        const m = typeof msg === 'function' ? await msg() : msg;
        if (!this.failed) this.port.post(m);
      })
      .catch((err: unknown) => this.fail(err instanceof Error ? err : new Error(String(err))));
  }

  values(rows: readonly (readonly number[])[], maxRows: number): Promise<Float32Array[]> {
    return this.request((id) => ({ op: 'values', id, rows: rows.map((r) => [...r]), maxRows }));
  }

  steps(settings: CriticStepSettings): CriticSteps {
    this.send({ op: 'begin', settings });
    return {
      post: (mb, microRows) => this.send({ op: 'step', mb, microRows }),
      finish: () => this.request<CriticStepsReport>((id) => ({ op: 'finish', id })),
    };
  }

  finite(): Promise<boolean> {
    return this.request((id) => ({ op: 'finite', id }));
  }

  save(): void {
    this.send({ op: 'save' });
  }

  restore(): void {
    this.send({ op: 'restore' });
  }

  readAdam(): Promise<AdamState> {
    return this.request((id) => ({ op: 'readAdam', id }));
  }

  writeAdam(state: AdamState): void {
    this.send({ op: 'writeAdam', state });
  }

  push(): void {
    this.send(async () => ({ op: 'load', weights: await weightValues(this.model) }));
  }

  async pull(): Promise<void> {
    const weights = await this.request<Float32Array[]>((id) => ({ op: 'weights', id }));
    modelVariables(this.model).forEach((v, i) => {
      const t = tf.tensor(weights[i] as Float32Array, v.shape, 'float32');
      v.assign(t);
      t.dispose();
    });
  }

  dispose(): void {
    this.waiting.clear();
    this.failed ??= new Error('critic worker: disposed');
    this.port.terminate();
  }
}

/** A factory of critics in second workers, each behind a port `open` makes. */
export function remoteCritic(open: () => CriticPort): CriticHostFactory {
  return (critic, adam) => new RemoteCritic(critic, open(), adam);
}
