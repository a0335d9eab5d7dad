// The train worker: owns tfjs, the model and the trainer; the UI thread only renders.
// Messages follow protocol.ts; every request gets exactly one reply with its id.
import { chooseBackend } from './backend.js';
import { assertNever, type FromTrainWorker, type ToTrainWorker } from './protocol.js';
import { runSelfCheck } from './selfCheck.js';
import { browserWasmPaths } from './wasmPaths.js';

const post = (msg: FromTrainWorker): void => (self as unknown as Worker).postMessage(msg);

async function handle(msg: ToTrainWorker): Promise<void> {
  switch (msg.type) {
    case 'init': {
      const report = await chooseBackend(msg.backend, browserWasmPaths);
      post({ type: 'ready', id: msg.id, report });
      return;
    }
    case 'selfCheck': {
      const { results, maxAbsDiff } = await runSelfCheck(msg.backends, msg.steps, msg.seed, browserWasmPaths);
      post({ type: 'selfCheck', id: msg.id, results, maxAbsDiff });
      return;
    }
    default:
      assertNever(msg);
  }
}

// Requests run one at a time, in arrival order, so backend switches never interleave.
let queue: Promise<void> = Promise.resolve();
self.addEventListener('message', (event: MessageEvent<ToTrainWorker>) => {
  const msg = event.data;
  queue = queue.then(() =>
    handle(msg).catch((err: unknown) => {
      post({ type: 'error', id: msg.id ?? null, message: err instanceof Error ? err.message : String(err) });
    }),
  );
});
