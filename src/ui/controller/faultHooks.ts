// Test hooks, installed only with `?test-faults` in the address: the faults of issue 10 injected
// into the train worker, so the browser tests can watch the recovery.
import type { TrainClient } from '../../workers/client.js';

export function installFaultHooks(c: TrainClient): void {
  (window as unknown as { starpoFaults: unknown }).starpoFaults = {
    loseDevice: () => c.injectFault('loseDevice'),
    crashWorker: () => c.injectFault('crash'),
    crashSecondWorker: () => c.injectFault('crashSecond'),
    killWorker: () => c.killWorker(),
    nonFinite: (count: number) => c.injectFault('nonFinite', count),
  };
}
