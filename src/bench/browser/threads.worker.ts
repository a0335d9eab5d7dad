// One side of the WASM-threads measurement, in a bundled module worker exactly like the train
// worker's start-up (wasmThreads.ts, then chooseBackend with the served binaries): threads on or
// off, the same work either way — the nano training step and scoring (8 × 128 tokens), batched
// decoding, and three real trainer iterations and five policy steps from fixed seeds, whose
// numbers the Node side compares between the two builds. Timings are reported, never asserted.

import * as tf from '@tensorflow/tfjs';
import { isClockKey } from '../../core/metrics/keys.js';
import { disposeModel } from '../../core/model/params.js';
import { resolveConfig } from '../../core/resolve.js';
import { RunSession } from '../../core/rl/runSession.js';
import { policyStep } from '../../core/rl/update.js';
import { Rng } from '../../core/rng.js';
import { inProcessPools } from '../../envs/pools.js';
import { envIds, envSpec } from '../../envs/registry.js';
import { untrainedBase } from '../../envs/untrainedBase.js';
import { chooseBackend } from '../../workers/backend.js';
import { STEP_SETTINGS, stepModel, syntheticMinibatch, timeSteps } from '../../workers/stepTiming.js';
import { browserWasmPaths } from '../../workers/wasmPaths.js';
import { prepareWasmThreads, wasmThreadCount } from '../../workers/wasmThreads.js';
import { benchRollout } from '../rolloutBench.js';
import { type MatmulRate, measureMatmul } from '../roofline.js';

export interface ThreadsReport {
  threads: boolean;
  threadCount: number;
  reason: string;
  backend: string;
  stepMs: number;
  scoreMs: number;
  decodeTokensPerSec: number;
  /** The 2-D matrix-product rate in this worker (the roofline's roof). */
  matmul: MatmulRate;
  /** Metric rows of three trainer iterations (numbers only). */
  trainerRows: Record<string, number>[];
  /** Loss of each of five policy steps on one synthetic minibatch. */
  stepLosses: number[];
}

const ENV = 'minigrid/DoorKey-5x5';

async function trainerRows(): Promise<Record<string, number>[]> {
  const base = untrainedBase(ENV, 'nano', 128, 1);
  // Built like every run's config (core/resolve.ts): defaults ← the algorithm ← these edits.
  const r = resolveConfig(
    {
      edits: {
        algorithm: 'starpo-ppo',
        env: ENV,
        modelSize: 'nano',
        backend: 'wasm',
        groups: 2,
        groupSize: 2,
        maxTurns: 2,
        maxTokensPerTurn: 8,
        contextLength: 128,
        iterations: 3,
        evalEvery: 0,
        miEvery: 0,
        checkpointEvery: 0,
        seed: 1,
      },
    },
    envIds(),
  );
  if (r.errors.length > 0) throw new Error(`threads bench config: ${JSON.stringify(r.errors)}`);
  const spec = envSpec(ENV);
  const session = new RunSession({ config: r.values, base, pools: inProcessPools(spec.id) });
  const rows: Record<string, number>[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const row = await session.step();
      rows.push(
        Object.fromEntries(
          Object.entries(row).filter(([k, v]) => typeof v === 'number' && !isClockKey(k)),
        ) as Record<string, number>,
      );
    }
  } finally {
    session.dispose();
    disposeModel(base.policy);
  }
  return rows;
}

async function stepLosses(vocab: number): Promise<number[]> {
  const shape = { rows: 4, T: 64, scoreRows: 4, vocab };
  const { policy, optimizer } = stepModel('nano', shape, 7);
  const mb = syntheticMinibatch(new Rng(9), shape.rows, shape.T, vocab);
  const losses: number[] = [];
  try {
    for (let i = 0; i < 5; i++) losses.push((await policyStep(policy, optimizer, mb, STEP_SETTINGS)).loss);
  } finally {
    optimizer.dispose();
    disposeModel(policy);
  }
  return losses;
}

self.onmessage = async (e: MessageEvent<{ threads: boolean }>) => {
  try {
    const threading = await prepareWasmThreads(e.data.threads);
    const report = await chooseBackend('wasm', browserWasmPaths);
    threading.started();
    const tok = untrainedBase(ENV, 'nano', 256, 1);
    disposeModel(tok.policy);
    const vocab = tok.tokenizer.size;
    const matmul = await measureMatmul();
    const t = await timeSteps('nano', { rows: 8, T: 128, scoreRows: 16, vocab }, 3);
    const decode = await benchRollout(tok.tokenizer, 'nano', 64, 64, 16);
    const out: ThreadsReport = {
      threads: threading.threads,
      threadCount: await wasmThreadCount(),
      reason: threading.reason,
      backend: `${report.backend}/${tf.getBackend()}`,
      stepMs: t.stepMs,
      scoreMs: t.scoreMs,
      decodeTokensPerSec: decode.cachedTokensPerSec,
      matmul,
      trainerRows: await trainerRows(),
      stepLosses: await stepLosses(vocab),
    };
    postMessage(out);
  } catch (err) {
    postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) });
  }
};
