// The train worker's view of the env worker pool: core's EnvPool over MessagePorts. Slot i
// lives on shard i mod S as its local slot ⌊i / S⌋, so the mapping never depends on how many
// slots a call uses. Each reset or step sends exactly one message per shard that has work.
import type { EnvPool, ResetResult, TurnResult } from '../core/rl/envPool.js';
import type { FromEnvShard, ToEnvShard } from './protocol.js';

/** The minimal port surface used (a DOM MessagePort or Node's). */
export interface PortLike {
  postMessage(msg: unknown): void;
  addEventListener(type: 'message', fn: (e: { data: unknown }) => void): void;
  start?(): void;
}

type Pending = { resolve: (m: FromEnvShard) => void; reject: (e: Error) => void };
type ShardRequest = ToEnvShard extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;

/** Request/reply over one port. */
export class ShardLink {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly port: PortLike) {
    port.addEventListener('message', (e) => {
      const msg = e.data as FromEnvShard;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.type === 'error') p.reject(new Error(`env worker: ${msg.message}`));
      else p.resolve(msg);
    });
    port.start?.();
  }

  /** Sends a request (its id is assigned here) and resolves with the reply. */
  request(msg: ShardRequest): Promise<FromEnvShard> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.postMessage({ ...msg, id });
    });
  }
}

/** An EnvPool whose environments live in env workers. */
export class WorkerEnvPool implements EnvPool {
  stepsTaken = 0;

  constructor(
    private readonly shards: readonly ShardLink[],
    private readonly pool: string,
    private readonly envId: string,
  ) {
    if (shards.length === 0) throw new Error('WorkerEnvPool: needs at least one env shard');
  }

  async reset(seeds: readonly number[], instances?: readonly number[]): Promise<ResetResult[]> {
    const S = this.shards.length;
    const replies = await Promise.all(
      this.shards.map((link, k) => {
        const mine = seeds.filter((_, i) => i % S === k);
        if (mine.length === 0) return null;
        const inst = seeds.map((_, i) => instances?.[i] ?? 0).filter((_, i) => i % S === k);
        return link.request({
          type: 'reset',
          pool: this.pool,
          envId: this.envId,
          seeds: mine,
          instances: inst,
        });
      }),
    );
    return seeds.map((_, i) => {
      const r = replies[i % S];
      if (r?.type !== 'reset') throw new Error('env worker: reset reply missing');
      return r.results[Math.floor(i / S)] as ResetResult;
    });
  }

  async step(batch: readonly { slot: number; actions: readonly string[] }[]): Promise<TurnResult[]> {
    const S = this.shards.length;
    const perShard: { slot: number; actions: string[] }[][] = this.shards.map(() => []);
    const where = batch.map(({ slot, actions }) => {
      const list = perShard[slot % S] as { slot: number; actions: string[] }[];
      list.push({ slot: Math.floor(slot / S), actions: [...actions] });
      return { shard: slot % S, index: list.length - 1 };
    });
    const replies = await Promise.all(
      this.shards.map((link, k) => {
        const list = perShard[k] as { slot: number; actions: string[] }[];
        return list.length === 0 ? null : link.request({ type: 'step', pool: this.pool, batch: list });
      }),
    );
    return where.map(({ shard, index }) => {
      const r = replies[shard];
      if (r?.type !== 'step') throw new Error('env worker: step reply missing');
      const result = r.results[index] as TurnResult;
      this.stepsTaken += result.outcomes.length;
      return result;
    });
  }
}
