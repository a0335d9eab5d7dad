// Shared by the run controller tests (Node, CPU backend): the backend report they start with and
// env shard links over MessageChannels, as the train worker has them with its env workers.
import { makeEnv } from '../envs/registry.js';
import type { BackendReport } from './backendInfo.js';
import { EnvShard } from './envShard.js';
import { ShardLink } from './workerEnvPool.js';

export const CPU_REPORT: BackendReport = {
  backend: 'cpu',
  requested: 'cpu',
  adapter: null,
  wasm: null,
  fallbacks: [],
};

const channels: MessageChannel[] = [];

/** A shard link to an in-process env shard; `fail` answers every request with that error instead. */
export function shardLink(fail?: string): ShardLink {
  const c = new MessageChannel();
  channels.push(c);
  const shard = new EnvShard((id) => makeEnv(id));
  c.port1.addEventListener('message', (e) =>
    c.port1.postMessage(fail ? { type: 'error', id: e.data.id, message: fail } : shard.handle(e.data)),
  );
  c.port1.start();
  return new ShardLink(c.port2);
}

/** Closes every link made so far (afterAll), so the test process can exit. */
export function closeShardLinks(): void {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
}
