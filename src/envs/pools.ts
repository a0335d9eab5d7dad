// The env pools of a run in one process, built in one place: the training pool on the run's env
// and the evaluation pool on its held-out variant (registry.ts evalEnvId), so no caller can
// evaluate on the training env by mistake. The browser's train worker builds the same pair
// over its env workers (workers/runController.ts).
import { InProcessEnvPool } from '../core/rl/envPool.js';
import { envSpec, evalEnvId } from './registry.js';

export interface RunPools {
  pool: InProcessEnvPool;
  evalPool: InProcessEnvPool;
}

/** The training and held-out pools of a run on env `id`. */
export function inProcessPools(id: string): RunPools {
  const train = envSpec(id);
  return { pool: new InProcessEnvPool(() => train.make()), evalPool: evalPool(id) };
}

/** The held-out pool alone (evaluating a base model or a checkpoint on env `id`). */
export function evalPool(id: string): InProcessEnvPool {
  const held = envSpec(evalEnvId(id));
  return new InProcessEnvPool(() => held.make());
}
