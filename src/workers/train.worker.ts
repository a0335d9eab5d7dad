// The train worker: owns tfjs, the model and the trainer; the UI thread only renders.
// Messages follow protocol.ts; every request gets exactly one reply with its id. Run reports
// (metrics, events, samples, progress) come from the RunController, batched.
import * as tf from '@tensorflow/tfjs';
import { chooseBackend } from './backend.js';
import type { BackendPreference, BackendReport } from './backendInfo.js';
import { assertNever, type FromTrainWorker, type ToTrainWorker } from './protocol.js';
import { RunController } from './runController.js';
import { runSelfCheck } from './selfCheck.js';
import { browserWasmPaths } from './wasmPaths.js';
import { ShardLink } from './workerEnvPool.js';

const post = (msg: FromTrainWorker, transfer: Transferable[] = []): void =>
  (self as unknown as Worker).postMessage(msg, transfer);

// The threaded WASM build spawns pthread workers from a blob that cannot load inside this
// bundled module worker ("e is not defined"), so use the single-threaded SIMD build. The flag
// exists once the WASM backend module is loaded.
const wasmSingleThread = import('@tensorflow/tfjs-backend-wasm').then(() =>
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false),
);

let report: BackendReport | null = null;
let shards: ShardLink[] = [];

/** Keeps the backend chosen at init for 'auto'; switches when the run forces another. */
async function ensureBackend(pref: BackendPreference): Promise<BackendReport> {
  if (report && (pref === 'auto' || tf.getBackend() === pref)) return report;
  await wasmSingleThread;
  report = await chooseBackend(pref, browserWasmPaths);
  return report;
}

const runs = new RunController(post, () => shards, ensureBackend);

async function handle(msg: ToTrainWorker): Promise<void> {
  switch (msg.type) {
    case 'init': {
      await wasmSingleThread;
      report = await chooseBackend(msg.backend, browserWasmPaths);
      post({ type: 'ready', id: msg.id, report });
      return;
    }
    case 'selfCheck': {
      const { results, maxAbsDiff } = await runSelfCheck(msg.backends, msg.steps, msg.seed, browserWasmPaths);
      post({ type: 'selfCheck', id: msg.id, results, maxAbsDiff });
      return;
    }
    case 'attachEnvPorts':
      shards = msg.ports.map((p) => new ShardLink(p));
      post({ type: 'ack', id: msg.id });
      return;
    case 'start':
      await runs.start(msg.id, msg.runId, msg.config, msg.base, msg.paused);
      return;
    case 'pause':
      await runs.pause();
      break;
    case 'resume':
      runs.resume();
      break;
    case 'stepOne':
      await runs.stepOne();
      break;
    case 'stop':
      await runs.stop();
      break;
    case 'reset':
      await runs.reset();
      break;
    case 'setLive':
      runs.setLive(msg.changes);
      break;
    default:
      assertNever(msg);
  }
  post({ type: 'ack', id: msg.id });
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
