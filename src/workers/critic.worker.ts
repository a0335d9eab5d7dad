// The critic's worker in the page (issue 40): started by the train worker for a run whose
// schedule has two workers (core/rl/schedule.ts). Its first message names the backend (WASM or
// CPU, single-threaded: the second core is this worker); every later one is the critic's,
// answered by the same service as Node's critic thread (core/rl/criticService.ts).
import type { ToCritic } from '../core/rl/criticPort.js';
import { criticService } from '../core/rl/criticService.js';
import { inProcessPools } from '../envs/pools.js';
import { chooseBackend } from './backend.js';
import { browserWasmPaths } from './wasmPaths.js';
import { prepareWasmThreads } from './wasmThreads.js';

/** The first message: where the critic runs. */
export interface CriticBackendMessage {
  backend: 'wasm' | 'cpu';
}

const scope = self as unknown as Worker;
// The envs of a run without a critic's measurements and base rollouts are made here, in this worker.
const handle = criticService((msg) => scope.postMessage(msg), { pools: inProcessPools });
let ready: Promise<unknown> | null = null;

async function start(backend: 'wasm' | 'cpu'): Promise<void> {
  await prepareWasmThreads(false);
  const report = await chooseBackend(backend, browserWasmPaths);
  if (report.backend !== backend) throw new Error(`the critic worker could not start ${backend}`);
}

scope.addEventListener('message', (event: MessageEvent<CriticBackendMessage | ToCritic>) => {
  const msg = event.data;
  if (!ready) {
    // A backend that cannot start fails the worker: the run's side refuses every waiting call.
    ready = start((msg as CriticBackendMessage).backend);
    ready.catch((err: unknown) =>
      setTimeout(() => {
        throw err;
      }, 0),
    );
    return;
  }
  void ready.then(() => handle(msg as ToCritic));
});
