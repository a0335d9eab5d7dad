// A run's second worker in the page (issue 40): the schedule a run gets on this machine
// (core/rl/schedule.ts, from the browser's logical cores and the runs side by side) and, for two
// workers, a CriticPort to a new critic.worker.ts for RemoteCritic, or for RemoteReference in a
// run without a critic; and a test hook that crashes them.
import type { Config } from '../core/config.js';
import { type CriticPort, remoteCritic, remoteReference } from '../core/rl/criticPort.js';
import { type Schedule, type SecondWorker, scheduleOf } from '../core/rl/schedule.js';
import type { CriticBackendMessage } from './critic.worker.js';

/**
 * The critic workers alive in this worker (from when their port listens), each with how to fail
 * it as a crash does (a test hook).
 */
const live = new Map<Worker, () => void>();

/** A port to a new critic worker on `backend`. */
export function pageCriticPort(backend: 'wasm' | 'cpu'): CriticPort {
  const worker = new Worker(new URL('./critic.worker.ts', import.meta.url), { type: 'module' });
  worker.postMessage({ backend } satisfies CriticBackendMessage);
  return {
    post: (msg) => worker.postMessage(msg),
    listen(onAnswer, onError) {
      worker.addEventListener('message', (e) => onAnswer(e.data));
      worker.addEventListener('error', (e) => {
        e.preventDefault();
        live.delete(worker);
        onError(new Error(e.message || 'the critic worker crashed'));
      });
      live.set(worker, () => onError(new Error('injected crash of the second worker')));
    },
    terminate: () => {
      live.delete(worker);
      worker.terminate();
    },
  };
}

/**
 * Test hook (`?test-faults`): ends every live second worker as a crash would — terminated, its
 * port told it failed. Returns how many there were.
 */
export function crashSecondWorkers(): number {
  const crashed = [...live];
  live.clear();
  for (const [worker, fail] of crashed) {
    worker.terminate();
    fail();
  }
  return crashed.length;
}

/** The schedule of a run of `config` on `backend` beside `lanes − 1` others, and its second worker. */
export function pageSchedule(
  config: Config,
  backend: string,
  lanes: number,
): { schedule: Schedule; second?: SecondWorker } {
  const cores = navigator.hardwareConcurrency || 1;
  const schedule = scheduleOf(config, { choice: 'auto', cores, lanes, backend });
  if (schedule.workers === 1) return { schedule };
  const open = () => pageCriticPort(backend === 'cpu' ? 'cpu' : 'wasm');
  return { schedule, second: { criticHost: remoteCritic(open), referenceHost: remoteReference(open) } };
}
