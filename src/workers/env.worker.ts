// An env worker: hosts one shard of environments for the train worker, which talks to it over
// the MessagePort the UI hands in (env traffic never passes the UI thread).
import { makeEnv } from '../envs/registry.js';
import { EnvShard } from './envShard.js';
import type { ToEnvShard, ToEnvWorker } from './protocol.js';

const shard = new EnvShard((envId) => makeEnv(envId));

self.addEventListener('message', (event: MessageEvent<ToEnvWorker>) => {
  const msg = event.data;
  if (msg.type !== 'connect') return;
  const port = msg.port;
  port.addEventListener('message', (e: MessageEvent<ToEnvShard>) => port.postMessage(shard.handle(e.data)));
  port.start();
});
