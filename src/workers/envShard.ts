// One env worker's shard: environments kept per pool ("train", "eval"), reset and
// stepped in batches with the same semantics as core's InProcessEnvPool, so a run gives the
// same trajectories whether its envs live in-process or across any number of shards.
import { applyActions, type EnvLike } from '../core/rl/envPool.js';
import { assertNever, type FromEnvShard, type ToEnvShard } from './protocol.js';

interface PoolState {
  envId: string;
  envs: EnvLike[];
  observations: string[];
}

/** Answers shard requests; `make(envId)` builds one environment. */
export class EnvShard {
  private readonly pools = new Map<string, PoolState>();

  constructor(private readonly make: (envId: string) => EnvLike) {}

  private pool(name: string, envId: string): PoolState {
    let p = this.pools.get(name);
    if (!p || p.envId !== envId) {
      p = { envId, envs: [], observations: [] };
      this.pools.set(name, p);
    }
    return p;
  }

  /** Handles one request; failures become an `error` reply naming the request. */
  handle(msg: ToEnvShard): FromEnvShard {
    try {
      switch (msg.type) {
        case 'reset': {
          const p = this.pool(msg.pool, msg.envId);
          while (p.envs.length < msg.seeds.length) p.envs.push(this.make(msg.envId));
          const results = msg.seeds.map((seed, i) => {
            const env = p.envs[i] as EnvLike;
            const observation = env.reset(seed, msg.instances[i] ?? 0);
            p.observations[i] = observation;
            return { observation, instruction: env.instruction() };
          });
          return { type: 'reset', id: msg.id, results };
        }
        case 'step': {
          const p = this.pools.get(msg.pool);
          if (!p) throw new Error(`pool "${msg.pool}" was never reset`);
          const results = msg.batch.map(({ slot, actions }) => {
            const env = p.envs[slot];
            if (!env) throw new Error(`slot ${slot} of pool "${msg.pool}" was never reset`);
            const r = applyActions(env, actions, p.observations[slot] ?? '');
            p.observations[slot] = r.observation;
            return r;
          });
          return { type: 'step', id: msg.id, results };
        }
        default:
          return assertNever(msg);
      }
    } catch (err) {
      return { type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) };
    }
  }
}
