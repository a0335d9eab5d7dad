// The train worker: owns tfjs, the model and the trainer; the UI thread only renders.
// Messages follow protocol.ts; every request gets exactly one reply with its id. Run reports
// (metrics, events, samples, progress) come from the RunController, batched. On WebGPU the
// device is watched (gpuWatch.ts): a loss or a GPU failure is reported as `gpuFault` once, and
// the UI side restarts this worker on WASM. `injectFault` is the test hook for those faults.
import * as tf from '@tensorflow/tfjs';
import type { ModelSize } from '../core/model/config.js';
import { chooseBackend } from './backend.js';
import type { BackendPreference, BackendReport } from './backendInfo.js';
import { loseDevice, tfjsDevice, watchDevice } from './gpuWatch.js';
import { crashSecondWorkers, pageSchedule } from './pageCritic.js';
import {
  assertNever,
  type FromTrainWorker,
  type GpuFaultKind,
  type InjectedFault,
  type ToTrainWorker,
} from './protocol.js';
import { RunController } from './runController.js';
import { runSelfCheck } from './selfCheck.js';
import { startTfjs, warmupSettled } from './startup.js';
import { browserWasmPaths } from './wasmPaths.js';
import { prepareWasmThreads, wasmThreadCount } from './wasmThreads.js';
import { ShardLink } from './workerEnvPool.js';

const post = (msg: FromTrainWorker, transfer: Transferable[] = []): void =>
  (self as unknown as Worker).postMessage(msg, transfer);

// The threaded SIMD build where the page is cross-origin isolated, its pthreads loading the
// glue script from its own URL (wasmThreads.ts); else single-threaded, with the reason shown.
const wasmThreading = prepareWasmThreads();

let report: BackendReport | null = null;
let shards: ShardLink[] = [];
let gpuFaulted = false;
/** How long a GPU error from an iteration waits for a device loss to explain it (ms). */
const LOSS_GRACE_MS = 1000;

/** Reports a GPU fault once; the UI side then replaces this worker. */
function gpuFault(kind: GpuFaultKind, message: string): void {
  if (gpuFaulted) return;
  gpuFaulted = true;
  post({ type: 'gpuFault', kind, message });
}

/** Chooses a backend and, when it is WebGPU, watches its device. */
async function startBackend(pref: BackendPreference, size?: ModelSize): Promise<BackendReport> {
  const threading = await wasmThreading;
  // 'auto' with a size: the timed probe and the shader warm-up (startup.ts); else the plain choice.
  try {
    report = size
      ? await startTfjs(pref, size, browserWasmPaths, (status) => post({ type: 'startup', status }))
      : await chooseBackend(pref, browserWasmPaths);
  } finally {
    threading.started();
  }
  if (report.backend === 'wasm' && report.wasm) {
    report = {
      ...report,
      wasm: {
        ...report.wasm,
        threads: threading.threads,
        threadCount: threading.threads ? await wasmThreadCount() : 1,
        threadsReason: threading.reason,
      },
    };
  }
  const device = tfjsDevice();
  if (device) watchDevice(device, gpuFault);
  return report;
}

/** Keeps the backend chosen at init for 'auto'; switches when the run forces another. */
async function ensureBackend(pref: BackendPreference): Promise<BackendReport> {
  if (pref !== 'wasm' && pref !== 'cpu') await warmupSettled(); // WebGPU pipelines still compiling
  if (report && (pref === 'auto' || tf.getBackend() === pref)) return report;
  return startBackend(pref);
}

const runs = new RunController(
  post,
  () => shards,
  ensureBackend,
  // A failed iteration often comes just before the device's `lost` promise resolves: give the
  // loss a moment to be reported as what it is.
  (message) => setTimeout(() => gpuFault('error', message), LOSS_GRACE_MS),
  () => gpuFaulted,
  // Two workers where the machine has the cores for them: the critic, or half the reference
  // scoring, beside the policy.
  pageSchedule,
);

/** Test hook (issue 10): the faults the recovery tests inject. */
function inject(fault: InjectedFault, count: number): void {
  switch (fault) {
    case 'loseDevice':
      if (!loseDevice()) throw new Error('no WebGPU device to lose: the worker is not on webgpu');
      return;
    case 'crash':
      // Thrown outside any promise: an uncaught error, as a real bug would be.
      setTimeout(() => {
        throw new Error('injected worker crash');
      }, 0);
      return;
    case 'nonFinite':
      runs.injectNonFinite(count);
      return;
    case 'crashSecond':
      if (crashSecondWorkers() === 0) throw new Error('no second worker is running: the run has one worker');
      return;
    default:
      assertNever(fault);
  }
}

async function handle(msg: ToTrainWorker): Promise<void> {
  switch (msg.type) {
    case 'init': {
      post({ type: 'ready', id: msg.id, report: await startBackend(msg.backend, msg.size) });
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
      await runs.start(msg.id, msg.runId, msg.config, msg.base, msg.paused, msg.resume, msg.lanes);
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
    case 'baseReasoning': {
      const groups = await runs.baseReasoning(msg.config, msg.base, msg.seeds, msg.iteration);
      post({ type: 'baseReasoning', id: msg.id, groups });
      return;
    }
    case 'injectFault':
      inject(msg.fault, msg.count);
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
