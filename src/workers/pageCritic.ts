// The critic in a worker of its own in the page (issue 40): the schedule a run gets on this
// machine (core/rl/schedule.ts, from the browser's logical cores and the runs side by side) and,
// for two workers, a CriticPort to a new critic.worker.ts for RemoteCritic.
import type { Config } from '../core/config.js';
import { usesCritic } from '../core/rl/algorithms.js';
import type { CriticHostFactory } from '../core/rl/criticHost.js';
import { type CriticPort, remoteCritic } from '../core/rl/criticPort.js';
import { chooseSchedule, type Schedule } from '../core/rl/schedule.js';
import type { CriticBackendMessage } from './critic.worker.js';

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
        onError(new Error(e.message || 'the critic worker crashed'));
      });
    },
    terminate: () => worker.terminate(),
  };
}

/** The schedule of a run of `config` on `backend` beside `lanes − 1` others, and its critic's host. */
export function pageSchedule(
  config: Config,
  backend: string,
  lanes: number,
): { schedule: Schedule; criticHost?: CriticHostFactory } {
  const schedule = chooseSchedule({
    choice: 'auto',
    cores: navigator.hardwareConcurrency || 1,
    lanes,
    backend,
    critic: usesCritic(config),
  });
  if (schedule.workers === 1) return { schedule };
  return { schedule, criticHost: remoteCritic(() => pageCriticPort(backend === 'cpu' ? 'cpu' : 'wasm')) };
}
