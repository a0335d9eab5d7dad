// What resuming by default costs (issue 39): the echo-trap preset as a user runs it, a checkpoint
// taken after every timed iteration by the function the train worker and the CLI take theirs with
// (core/rl/runSession.ts checkpoint: the trainer's state — optimizer moments and random
// streams — and the weights, serialized to a manifest and one blob), and the cost at the preset's
// own interval as a share of the iterations between two checkpoints. Storing the blob (IndexedDB
// in the page, a file in the CLI) is not in the figure.
import { disposeModel } from '../core/model/params.js';
import { RunSession } from '../core/rl/runSession.js';
import { median } from '../core/stats.js';
import { inProcessPools } from '../envs/pools.js';
import type { BackendName } from '../workers/backend.js';
import { presetSetup } from './presetBench.js';

export interface CheckpointBench {
  preset: string;
  backend: BackendName;
  /** Timed iterations (after one warm-up), each followed by a checkpoint. */
  iterations: number;
  /** Median seconds an iteration (the checkpoint not included). */
  secondsPerIteration: number;
  /** Median milliseconds a checkpoint. */
  checkpointMs: number;
  /** Its size: the manifest's JSON and the blob. */
  checkpointBytes: number;
  /** The preset's checkpointEvery. */
  every: number;
  /** checkpointMs ÷ (every × the iteration): what resuming by default adds to a run. */
  overhead: number;
}

export async function benchCheckpoint(
  name: string,
  backend: BackendName,
  iterations: number,
  baseChoice?: 'random',
): Promise<CheckpointBench> {
  const { config, loaded } = await presetSetup(name, backend, iterations + 1, {}, baseChoice);
  const session = new RunSession({ config, base: loaded.base, pools: inProcessPools(config.env) });
  const iterationMs: number[] = [];
  const checkpointMs: number[] = [];
  let bytes = 0;
  try {
    for (let i = 0; i <= iterations; i++) {
      const t0 = performance.now();
      await session.step();
      const t1 = performance.now();
      const saved = await session.checkpoint();
      const t2 = performance.now();
      bytes = JSON.stringify(saved.manifest).length + saved.blob.byteLength;
      if (i === 0) continue; // warm-up
      iterationMs.push(t1 - t0);
      checkpointMs.push(t2 - t1);
    }
  } finally {
    session.dispose();
    disposeModel(loaded.base.policy);
  }
  const perIteration = median(iterationMs);
  const perCheckpoint = median(checkpointMs);
  const every = Math.max(1, config.checkpointEvery);
  return {
    preset: name,
    backend,
    iterations,
    secondsPerIteration: perIteration / 1000,
    checkpointMs: perCheckpoint,
    checkpointBytes: bytes,
    every: config.checkpointEvery,
    overhead: perCheckpoint / (every * perIteration),
  };
}
