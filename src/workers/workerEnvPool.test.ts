// The worker env pool over real MessageChannels (Node's) against core's in-process pool: the
// same seeds and actions give the same observations, rewards and flags for any shard count,
// and each reset/step sends one message per shard with work.
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessEnvPool } from '../core/rl/envPool.js';
import { makeEnv } from '../envs/registry.js';
import { EnvShard } from './envShard.js';
import type { ToEnvShard } from './protocol.js';
import { ShardLink, WorkerEnvPool } from './workerEnvPool.js';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

function shards(n: number, log: ToEnvShard[]): ShardLink[] {
  return Array.from({ length: n }, () => {
    const c = new MessageChannel();
    channels.push(c);
    const shard = new EnvShard((id) => makeEnv(id));
    c.port1.addEventListener('message', (e) => {
      log.push(e.data as ToEnvShard);
      c.port1.postMessage(shard.handle(e.data as ToEnvShard));
    });
    c.port1.start();
    return new ShardLink(c.port2);
  });
}

const ENV = 'minigrid/DoorKey-5x5';
const seeds = [11, 11, 12, 13, 14];
const turns = [['turn left', 'go forward'], ['go forward'], ['pick up', 'toggle', 'go forward']];

describe('WorkerEnvPool', () => {
  for (const n of [1, 2, 3]) {
    it(`matches the in-process pool with ${n} shard(s), one message per shard per call`, async () => {
      const log: ToEnvShard[] = [];
      const pool = new WorkerEnvPool(shards(n, log), 'train', ENV);
      const ref = new InProcessEnvPool(() => makeEnv(ENV));
      expect(await pool.reset(seeds)).toEqual(await ref.reset(seeds));
      expect(log.length).toBe(Math.min(n, seeds.length));
      for (const actions of turns) {
        log.length = 0;
        // Slot 1 sits this turn out, as a finished trajectory would.
        const batch = seeds.map((_, slot) => ({ slot, actions })).filter((b) => b.slot !== 1);
        expect(await pool.step(batch)).toEqual(await ref.step(batch));
        expect(log.every((m) => m.type === 'step')).toBe(true);
        expect(log.length).toBe(new Set(batch.map((b) => b.slot % n)).size);
      }
      expect(pool.stepsTaken).toBe(ref.stepsTaken);
    });
  }

  it('carries each slot’s random-stream instance to its shard (stochastic FrozenLake)', async () => {
    const lake = 'frozenlake/FrozenLake-4x4';
    const slots = [5, 5, 5, 5, 5, 5];
    for (const instances of [slots.map(() => 0), slots.map((_, k) => k)]) {
      const pool = new WorkerEnvPool(shards(2, []), 'train', lake);
      const ref = new InProcessEnvPool(() => makeEnv(lake));
      expect(await pool.reset(slots, instances)).toEqual(await ref.reset(slots, instances));
      for (const a of ['Right', 'Down', 'Right', 'Down']) {
        const batch = slots.map((_, slot) => ({ slot, actions: [a] }));
        expect(await pool.step(batch)).toEqual(await ref.step(batch));
      }
    }
  });

  it('reports an unknown environment as an error naming it', async () => {
    const pool = new WorkerEnvPool(shards(1, []), 'train', 'minigrid/Nope');
    await expect(pool.reset([1])).rejects.toThrow(/Nope/);
  });

  it('keeps train and eval pools apart on the same shards', async () => {
    const links = shards(2, []);
    const train = new WorkerEnvPool(links, 'train', ENV);
    const evalPool = new WorkerEnvPool(links, 'eval', ENV);
    const a = await train.reset([1, 2]);
    await evalPool.reset([99, 98]);
    const ref = new InProcessEnvPool(() => makeEnv(ENV));
    await ref.reset([1, 2]);
    const batch = [{ slot: 0, actions: ['go forward'] }];
    expect(await train.step(batch)).toEqual(await ref.step(batch));
    expect(a).toHaveLength(2);
  });
});
