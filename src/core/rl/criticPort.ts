// The second worker of a run (issue 40): the messages between a run's thread and it, RemoteCritic
// (the CriticHost that sends the critic's) and, for a run without a critic, RemoteReference (a
// copy of the frozen reference that scores a share of its length groups and measures). Whatever
// carries them — a Web Worker in the page, a worker_threads Worker in Node — is a CriticPort.
// Messages are taken in order on the other side (criticService.ts), so a call that needs no
// answer (a step, a snapshot) is only posted, and a failure in one comes back with the next call
// that waits for an answer.
import type { Config } from '../config.js';
import type { AdamSettings, AdamState } from '../model/adam.js';
import type { ModelConfig } from '../model/config.js';
import { assignWeightValues, type Model, weightValues } from '../model/params.js';
import type { SampledRow } from '../model/sampling.js';
import type { RngState } from '../rng.js';
import type { Tokenizer, Vocabulary } from '../tokenizer.js';
import type {
  CriticHost,
  CriticHostFactory,
  CriticStepSettings,
  CriticSteps,
  CriticStepsReport,
} from './criticHost.js';
import type { Measured, MeasureRequest } from './measure.js';
import type { Minibatch } from './microBatch.js';
import {
  compactGroups,
  type ReferenceApart,
  type ReferenceHostFactory,
  type StreamAt,
} from './referenceHost.js';
import type { RolloutSettings, RolloutStart, Trajectory } from './rollout.js';
import type { SampleShare } from './splitSample.js';

/**
 * Run → second worker: the critic's messages, or for a run without a critic the reference's
 * (`initReference`, `referenceLogps`), the measurements' (`measure`), a share of each turn's
 * rows sampled with the policy's weights (`sample`, splitSample.ts) and the frozen base's
 * rollouts for the page's reasoning panel (`baseRollout`). Those with an `id` get one answer
 * with that id.
 */
export type ToCritic =
  | { op: 'init'; id: number; config: ModelConfig; weights: Float32Array[]; epsilon: number }
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
  | { op: 'dispose'; id: number }
  | { op: 'initReference'; id: number; config: ModelConfig; weights: Float32Array[]; vocab: Vocabulary }
  | { op: 'measure'; id: number; weights: Float32Array[]; req: MeasureRequest; config: Config }
  | { op: 'sample'; id: number; weights: Float32Array[]; share: SampleShare }
  | {
      op: 'baseRollout';
      id: number;
      starts: RolloutStart[];
      settings: RolloutSettings;
      env: string;
      rng: StreamAt;
    }
  | {
      op: 'referenceLogps';
      id: number;
      rows: number[][];
      groups: number[][];
      masks: Float32Array[];
      temperature: number;
    };

/** Critic worker → run: the answer to request `id`, or why it failed. */
export type FromCritic = { id: number; value?: unknown; error?: string };

/** What carries the messages (a Web Worker, a worker_threads Worker, or a test's pair). */
export interface CriticPort {
  post(msg: ToCritic): void;
  /** Answers, and `error` when the worker itself fails (every waiting call is then refused). */
  listen(onAnswer: (msg: FromCritic) => void, onError: (err: Error) => void): void;
  terminate(): void;
}

/**
 * The second worker itself failed (crashed, or was terminated): not an answer's error. A run whose
 * critic lives there cannot go on without it (its weights and Adam state went with it); the page
 * restarts the run from its last checkpoint on seeing this.
 */
export class SecondWorkerLost extends Error {
  override name = 'SecondWorkerLost';
}

/**
 * The run's end of a port: requests that wait for their answer (by id), posts that do not, all
 * sent in call order (a message made from a weight read holds back those after it); a failure
 * of the worker refuses every waiting and later call.
 */
class PortClient {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private failed: Error | null = null;
  private outbox: Promise<void> = Promise.resolve();
  /** Messages in the outbox not yet posted (one made from a weight read holds back those after it). */
  private queued = 0;

  constructor(
    private readonly port: CriticPort,
    /** How its errors name the worker, e.g. "critic worker". */
    private readonly who: string,
  ) {
    port.listen(
      (msg) => this.answer(msg),
      (err) => this.fail(err),
    );
  }

  private answer(msg: FromCritic): void {
    const w = this.waiting.get(msg.id);
    if (!w) return;
    this.waiting.delete(msg.id);
    if (msg.error !== undefined) w.reject(new Error(`${this.who}: ${msg.error}`));
    else w.resolve(msg.value);
  }

  private fail(err: Error): void {
    this.failed = new SecondWorkerLost(`${this.who}: ${err.message}`);
    for (const w of this.waiting.values()) w.reject(this.failed);
    this.waiting.clear();
  }

  request<T>(make: (id: number) => ToCritic | Promise<ToCritic>): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.send(() => make(id));
    });
  }

  send(msg: ToCritic | (() => ToCritic | Promise<ToCritic>)): void {
    // Nothing waiting to go out and the message ready: it goes now, not after this thread's next
    // await (a scoring pass computes its first group before it awaits anything).
    if (this.queued === 0 && !this.failed) {
      try {
        const m = typeof msg === 'function' ? msg() : msg;
        if (!(m instanceof Promise)) {
          this.port.post(m);
          return;
        }
        msg = () => m;
      } catch (err) {
        this.fail(err instanceof Error ? err : new Error(String(err)));
        return;
      }
    }
    this.queued++;
    const next = msg;
    this.outbox = this.outbox
      .then(async () => {
        const m = typeof next === 'function' ? await next() : next;
        if (!this.failed) this.port.post(m);
      })
      .catch((err: unknown) => this.fail(err instanceof Error ? err : new Error(String(err))))
      .finally(() => {
        this.queued--;
      });
  }

  terminate(): void {
    this.waiting.clear();
    this.failed ??= new Error(`${this.who}: disposed`);
    this.port.terminate();
  }
}

/** The critic in a second worker, behind `port`; `model` is this thread's copy of its weights. */
export class RemoteCritic implements CriticHost {
  readonly inThread = false;
  private readonly link: PortClient;

  constructor(
    readonly model: Model,
    port: CriticPort,
    adam: AdamSettings,
  ) {
    this.link = new PortClient(port, 'critic worker');
    void this.request(async (id) => ({
      op: 'init',
      id,
      config: model.config,
      weights: await weightValues(model),
      ...adam,
    })).catch(() => {}); // a failed start refuses the calls that follow
  }

  private request<T>(make: (id: number) => ToCritic | Promise<ToCritic>): Promise<T> {
    return this.link.request(make);
  }

  private send(msg: ToCritic | (() => ToCritic | Promise<ToCritic>)): void {
    this.link.send(msg);
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
    assignWeightValues(this.model, await this.request<Float32Array[]>((id) => ({ op: 'weights', id })));
  }

  dispose(): void {
    this.link.terminate();
  }
}

/** A factory of critics in second workers, each behind a port `open` makes. */
export function remoteCritic(open: () => CriticPort): CriticHostFactory {
  return (critic, adam) => new RemoteCritic(critic, open(), adam);
}

/**
 * The frozen reference copied into a second worker, behind `port`, scoring the length groups it
 * is given (referenceHost.ts): only those groups' rows travel, renumbered, and come back in place.
 * It measures the policy whose weights it is sent, on its own held-out envs.
 */
export class RemoteReference implements ReferenceApart {
  private readonly link: PortClient;

  constructor(reference: Model, tok: Tokenizer, port: CriticPort) {
    this.link = new PortClient(port, 'reference worker');
    void this.link
      .request(async (id) => ({
        op: 'initReference',
        id,
        config: reference.config,
        weights: await weightValues(reference),
        vocab: tok.vocab,
      }))
      .catch(() => {}); // a failed start refuses the calls that follow
  }

  async logps(
    rows: readonly (readonly number[])[],
    groups: readonly (readonly number[])[],
    masks: readonly Float32Array[],
    temperature: number,
  ): Promise<(Float32Array | null)[]> {
    const sent = compactGroups(rows, groups, masks);
    const answers = await this.link.request<Float32Array[]>((id) => ({
      op: 'referenceLogps',
      id,
      rows: sent.rows,
      groups: sent.groups,
      masks: sent.masks,
      temperature,
    }));
    return sent.spread(answers);
  }

  measure(weights: Float32Array[], req: MeasureRequest, config: Config): Promise<Measured> {
    return this.link.request((id) => ({ op: 'measure', id, weights, req, config }));
  }

  rollOut(
    starts: readonly RolloutStart[],
    settings: RolloutSettings,
    env: string,
    rng: StreamAt,
  ): Promise<{ trajectories: Trajectory[]; rng: RngState }> {
    return this.link.request((id) => ({ op: 'baseRollout', id, starts: [...starts], settings, env, rng }));
  }

  sample(weights: Float32Array[], share: SampleShare): Promise<SampledRow[]> {
    return this.link.request((id) => ({ op: 'sample', id, weights, share }));
  }

  dispose(): void {
    this.link.terminate();
  }
}

/** A factory of references in second workers, each behind a port `open` makes. */
export function remoteReference(open: () => CriticPort): ReferenceHostFactory {
  return (reference, tok) => new RemoteReference(reference, tok, open());
}
