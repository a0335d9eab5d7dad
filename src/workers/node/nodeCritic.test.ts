// A run's second worker thread (issue 40) against the serial schedule. The critic in it: the same
// metric rows (machine keys aside), the same weights and Adam state for a checkpoint, the same
// fault handling (a critic stepping to non-finite weights restores both models), and a run
// resumed from a checkpoint onto a fresh worker writes the rows the uninterrupted run wrote. A
// run without a critic (GRPO), whose worker scores a share of the reference's groups: the same.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../core/config.js';
import { isMachineKey, type MetricRow, rowWithout } from '../../core/metrics/keys.js';
import { assignWeightValues, weightValues } from '../../core/model/params.js';
import { applyAlgorithm, usesCritic } from '../../core/rl/algorithms.js';
import { remoteReference } from '../../core/rl/criticPort.js';
import { InProcessEnvPool } from '../../core/rl/envPool.js';
import type { SecondWorker } from '../../core/rl/schedule.js';
import { SideEnv, sideConfig, sideModelConfig } from '../../core/rl/sideEnv.fixture.js';
import { sideTrainer, tok } from '../../core/rl/tinyRun.fixture.js';
import type { SampledTrajectory, TrainerEvent, TrainingState } from '../../core/rl/trainer.js';
import { pairPort } from '../pairPort.fixture.js';
import { nodeSecondWorker } from './nodeCritic.js';

const mc = sideModelConfig(tok);

/** The schedule tests' run: PPO, 2 × 4 rollouts, minibatches of 2, the critic at lr 0.01. */
const config = (overrides: Partial<Config> = {}): Config =>
  sideConfig('starpo-ppo', { minibatch: 2, criticLr: 0.01, ...overrides });

interface Ran {
  rows: MetricRow[];
  events: TrainerEvent[];
  state: TrainingState;
  policy: Float32Array[];
  critic: Float32Array[];
  /** The page's samples: on MI iterations with the frozen base's rollouts for the reasoning panel. */
  samples: SampledTrajectory[];
  warnings: string[];
}

const read = weightValues;

/**
 * `iterations` of a run, with its `second` worker if given; with `from`, resumed there (its
 * weights and state put back as a page or the CLI does from a checkpoint).
 */
async function run(c: Config, iterations: number, second?: SecondWorker, from?: Ran): Promise<Ran> {
  const { trainer, policy, critic, rows, events, samples, warnings, dispose } = sideTrainer(c, mc, {
    critic: usesCritic(c),
    setup: second ?? {},
  });
  try {
    if (from) {
      assignWeightValues(policy, from.policy);
      if (critic) assignWeightValues(critic, from.critic);
      trainer.resumeAt(from.state.position.iteration, from.rows, from.state);
    }
    while (trainer.iteration < iterations) await trainer.step();
    const state = await trainer.trainingState();
    const critics = critic ? await read(critic) : [];
    return { rows, events, state, policy: await read(policy), critic: critics, samples, warnings };
  } finally {
    dispose();
  }
}

/** `second`, counting the rows its reference scored and the measurements it took. */
function counting(
  second: SecondWorker,
  asked: { rows: number; measures: number; rollouts: number; samples?: number },
): SecondWorker {
  const referenceHost: SecondWorker['referenceHost'] = (reference, tok) => {
    const apart = second.referenceHost(reference, tok);
    return {
      logps: async (...args) => {
        const out = await apart.logps(...args);
        asked.rows += out.filter((l) => l !== null).length;
        return out;
      },
      measure: (...args) => {
        asked.measures++;
        return apart.measure(...args);
      },
      rollOut: (...args) => {
        asked.rollouts++;
        return apart.rollOut(...args);
      },
      sample: (...args) => {
        asked.samples = (asked.samples ?? 0) + 1;
        return apart.sample(...args);
      },
      dispose: () => apart.dispose(),
    };
  };
  return { ...second, referenceHost };
}

const runRows = (rows: MetricRow[]) => rows.map((r) => rowWithout(r, isMachineKey));

function expectSame(a: Ran, b: Ran): void {
  expect(runRows(b.rows)).toEqual(runRows(a.rows));
  expect(b.events).toEqual(a.events);
  expect(b.policy).toEqual(a.policy);
  expect(b.critic).toEqual(a.critic);
  expect(b.state).toEqual(a.state);
  expect(b.samples).toEqual(a.samples);
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('the critic in a worker thread of its own', () => {
  it('writes the serial rows, weights and Adam state', async () => {
    const c = config();
    const serial = await run(c, 3);
    const apart = await run(c, 3, nodeSecondWorker('cpu'));
    expect(serial.rows[2]?.['critic/vfLoss']).toBeGreaterThan(0);
    expect(serial.state.optimizers.critic?.steps).toBeGreaterThan(0);
    expectSame(serial, apart);
  }, 120_000);

  it('a critic stepping into non-finite weights restores both models, as in one thread', async () => {
    // A huge critic rate: finite gradients step the critic's weights to ±Inf.
    const c = config({ criticLr: 1e38, gradClip: 0 });
    const serial = await run(c, 2);
    const apart = await run(c, 2, nodeSecondWorker('cpu'));
    expect(serial.events.some((e) => e.type === 'error')).toBe(true);
    expectSame(serial, apart);
  }, 120_000);

  it('a run resumed onto a fresh worker writes the rows of the uninterrupted run', async () => {
    const c = config();
    const whole = await run(c, 3);
    const first = await run(c, 2, nodeSecondWorker('cpu'));
    const rest = await run(c, 3, nodeSecondWorker('cpu'), first);
    expect(runRows(rest.rows)).toEqual(runRows(whole.rows.slice(2)));
    expect(rest.critic).toEqual(whole.critic);
    expect(rest.state).toEqual(whole.state);
  }, 120_000);
});

describe('a run without a critic: the reference scores a share of its groups in the thread', () => {
  // 4 × 16 rollouts: 64 rows, more than one scoring group, so the thread has a share.
  const grpo = (): Config => ({
    ...applyAlgorithm(config(), 'starpo-grpo'),
    groups: 4,
    groupSize: 16,
    klCoef: 0.05,
  });
  it('writes the serial rows, weights and Adam state', async () => {
    const c = grpo();
    const serial = await run(c, 3);
    const asked = { rows: 0, measures: 0, rollouts: 0, samples: 0 };
    const apart = await run(c, 3, counting(nodeSecondWorker('cpu'), asked));
    expect(asked.rows).toBeGreaterThan(0);
    // Every turn of every iteration's rollout gave half its rows to the worker.
    expect(asked.samples).toBeGreaterThanOrEqual(3);
    expect(serial.rows[2]?.['actor/klRef']).not.toBe(0);
    expectSame(serial, apart);
  }, 120_000);

  it('a run resumed onto a fresh worker writes the rows of the uninterrupted run', async () => {
    const c = grpo();
    const whole = await run(c, 3);
    const first = await run(c, 2, nodeSecondWorker('cpu'));
    const rest = await run(c, 3, nodeSecondWorker('cpu'), first);
    expect(runRows(rest.rows)).toEqual(runRows(whole.rows.slice(2)));
    expect(rest.policy).toEqual(whole.policy);
    expect(rest.state).toEqual(whole.state);
  }, 120_000);
});

describe('a run without a critic: the measurements taken in its second worker', () => {
  // Held-out evaluation and the MI proxy at iterations 0 and 2, taken by the worker's side from a
  // copy of the policy while the update runs; the worker's side is in this thread (pairPort), on
  // SideEnv's held-out envs, since a worker thread makes the registry's.
  const measuring = (): Config => ({
    ...applyAlgorithm(config(), 'starpo-grpo'),
    evalEvery: 2,
    evalEpisodes: 4,
    miEvery: 2,
    miSamples: 4,
  });
  const asked = { rows: 0, measures: 0, rollouts: 0 };
  const second = (crashAfter?: number): SecondWorker => {
    const side = () => new InProcessEnvPool(() => new SideEnv());
    const pools = () => ({ pool: side(), evalPool: side() });
    const open = () => pairPort({ pools, ...(crashAfter !== undefined ? { crashAfter } : {}) });
    const noCritic = () => {
      throw new Error('a run without a critic asks for no critic');
    };
    return counting({ criticHost: noCritic, referenceHost: remoteReference(open) }, asked);
  };

  it('writes the rows of measuring in this thread', async () => {
    const c = measuring();
    const serial = await run(c, 3);
    const apart = await run(c, 3, second());
    expect(asked.measures).toBe(2); // iterations 0 and 2 (the last)
    expect(asked.rollouts).toBe(2); // the frozen base's reasoning on the MI iterations, 0 and 2
    expect(serial.samples[0]?.reasoning?.groups[0]?.base?.length).toBe(c.groupSize);
    expect(serial.rows[0]?.['eval/successRate']).toBeTypeOf('number');
    expect(serial.rows[2]?.['reasoning/miPrompts']).toBeGreaterThan(0);
    expectSame(serial, apart);
    expect(apart.rows.map((r) => Object.keys(r))).toEqual(serial.rows.map((r) => Object.keys(r)));
  }, 120_000);

  it('a worker that crashes, at its start or mid-run, leaves its share to this thread: the same rows', async () => {
    const c = { ...measuring(), groups: 4, groupSize: 16 }; // more than one scoring group
    const serial = await run(c, 3);
    for (const crashAfter of [0, 2]) {
      const apart = await run(c, 3, second(crashAfter));
      expectSame(serial, apart);
      expect(apart.warnings).toEqual([
        'the second worker failed; this thread takes its share: reference worker: the worker crashed',
      ]);
    }
  }, 120_000);
});
