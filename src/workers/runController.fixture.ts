// Shared by the run controller tests (Node, CPU or WASM backend): the backend reports they start with, the
// tiny run they drive, and env shard links over MessageChannels, as the train worker has them
// with its env workers.
import { type Config, defaultConfig } from '../core/config.js';
import { applyAlgorithm } from '../core/rl/algorithms.js';
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

export const WASM_REPORT: BackendReport = { ...CPU_REPORT, backend: 'wasm', requested: 'wasm' };

/** GRPO on Empty-5x5 with 2 × 2 one-turn rollouts of 4 tokens: an iteration in well under a second. */
export function tinyRunConfig(overrides: Partial<Config>): Config {
  return {
    ...applyAlgorithm(defaultConfig(), 'starpo-grpo'),
    env: 'minigrid/Empty-5x5',
    groups: 2,
    groupSize: 2,
    maxTurns: 1,
    maxTokensPerTurn: 4,
    contextLength: 64,
    evalEvery: 0,
    miEvery: 0,
    minibatch: 4,
    ...overrides,
  };
}

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
