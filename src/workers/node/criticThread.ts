// The critic's worker in Node (worker_threads, issue 40): starts tfjs on the run's backend, then
// answers the run's messages with the same service the page's critic worker runs
// (core/rl/criticService.ts). Started by nodeCritic.ts.
import { parentPort, workerData } from 'node:worker_threads';
import type { ToCritic } from '../../core/rl/criticPort.js';
import { criticService } from '../../core/rl/criticService.js';
import { inProcessPools } from '../../envs/pools.js';
import { setupNodeBackend } from './backend.js';

const port = parentPort;
if (!port) throw new Error('criticThread.ts runs as a worker thread');
const ready = setupNodeBackend((workerData as { backend: 'wasm' | 'cpu' }).backend);
// The envs of a run without a critic's measurements and base rollouts are made here, in this thread.
const handle = criticService((msg) => port.postMessage(msg), { pools: inProcessPools });
// A backend that fails to start fails the worker: the run's side refuses every waiting call.
ready.catch((err: unknown) => {
  setImmediate(() => {
    throw err;
  });
});
port.on('message', (msg: ToCritic) => {
  void ready.then(() => handle(msg));
});
