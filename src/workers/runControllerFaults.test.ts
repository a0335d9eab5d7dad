// The run controller's fault paths in Node (CPU backend): three NaN-poisoned iterations in a row
// pause the run with the trainer's suggestion (events, then a run error carrying the halt) until
// a live change; a run resumed from a checkpoint continues at its iteration with its weights, and
// writes the rows the uninterrupted run wrote;
// an iteration failing on a lost GPU is handed to onGpuFault instead of a run error; a second
// worker lost with the run's critic is handed to the page's recovery, and one lost beside a run
// without a critic is a notice while the run goes on.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../core/config.js';
import { isMachineKey, type MetricRow, rowWithout } from '../core/metrics/keys.js';
import { applyAlgorithm } from '../core/rl/algorithms.js';
import { remoteCritic, remoteReference } from '../core/rl/criticPort.js';
import type { TrainerEvent } from '../core/rl/trainer.js';
import { inProcessPools } from '../envs/pools.js';
import type { BackendReport } from './backendInfo.js';
import { pairPort } from './pairPort.fixture.js';
import type { FromTrainWorker, ResumePoint } from './protocol.js';
import {
  closeShardLinks,
  CPU_REPORT as cpu,
  shardLink as link,
  tinyRunConfig,
} from './runController.fixture.js';
import { RunController } from './runController.js';

const config: Config = tinyRunConfig({ iterations: 20, checkpointEvery: 0, lr: 0.01 });

function recorder() {
  const got: FromTrainWorker[] = [];
  const events = () => got.flatMap((m): TrainerEvent[] => (m.type === 'reports' ? m.events : []));
  const rows = () => got.flatMap((m) => (m.type === 'reports' ? m.rows : []));
  return { got, events, rows, post: (m: FromTrainWorker) => got.push(m) };
}

const settle = async (rc: RunController) => {
  for (let k = 0; k < 200; k++) {
    await new Promise((r) => setTimeout(r, 20));
    if (!(rc as unknown as { run: { loop: unknown } | null }).run?.loop) return;
  }
};

beforeAll(async () => {
  await tf.setBackend('cpu');
});
afterAll(closeShardLinks);

describe('RunController faults', () => {
  it('pauses after three NaN iterations in a row with a suggestion, until a live change', async () => {
    const r = recorder();
    const links = [link()];
    const rc = new RunController(
      r.post,
      () => links,
      async () => cpu,
    );
    await rc.start(1, 'nan', config, { kind: 'fresh' }, true);
    await rc.stepOne(); // one clean iteration first
    rc.injectNonFinite(3);
    rc.resume();
    await settle(rc);
    const faults = r.events().filter((e) => e.type === 'error');
    expect(faults.map((e) => e.type === 'error' && e.consecutive)).toEqual([1, 2, 3]);
    expect(faults.map((e) => e.iteration)).toEqual([1, 2, 3]);
    const halt = faults[2];
    expect(halt?.type === 'error' && halt.pause).toBe(true);
    expect(halt?.type === 'error' && halt.suggestion).toBe('lower the learning rate (now 0.01) to 0.003');
    const err = r.got.find((m) => m.type === 'runError');
    expect(err?.type === 'runError' && err.message).toMatch(/paused after 3 non-finite iterations/);
    // Skipped iterations add no rows; paused: no more iterations, and stepping is refused.
    expect(r.rows().map((x) => x.iteration)).toEqual([0]);
    const last = r.got.filter((m) => m.type === 'progress').at(-1);
    expect(last?.type === 'progress' && [last.phase, last.iteration]).toEqual(['paused', 4]);
    await expect(rc.stepOne()).rejects.toThrow(/lower the learning rate/);
    // A lower learning rate clears the pause and training goes on.
    rc.setLive({ lr: 0.003 });
    await rc.stepOne();
    expect(r.rows().map((x) => x.iteration)).toEqual([0, 4]);
    expect(r.rows().at(-1)?.['actor/optimizerSteps']).toBeGreaterThan(0);
    await rc.reset();
  }, 60_000);

  it('resumes from a checkpoint: same weights, at its iteration', async () => {
    const r = recorder();
    const links = [link()];
    const rc = new RunController(
      r.post,
      () => links,
      async () => cpu,
    );
    await rc.start(1, 'a', config, { kind: 'fresh' }, true);
    await rc.stepOne();
    await rc.stepOne();
    await rc.stop();
    const cp = r.got.find((m) => m.type === 'checkpoint');
    if (cp?.type !== 'checkpoint') throw new Error('no checkpoint');
    expect(cp.iteration).toBe(2);

    const r2 = recorder();
    const rc2 = new RunController(
      r2.post,
      () => links,
      async () => cpu,
    );
    await rc2.start(1, 'a', config, { kind: 'fresh' }, true, {
      iteration: cp.iteration,
      manifest: cp.manifest,
      blob: cp.blob,
      rows: r.rows(),
    });
    const paused = r2.got.find((m) => m.type === 'progress' && m.phase === 'paused');
    expect(paused?.type === 'progress' && paused.iteration).toBe(2);
    // A checkpoint taken right away holds exactly the weights resumed from.
    await rc2.stop();
    const again = r2.got.find((m) => m.type === 'checkpoint');
    if (again?.type !== 'checkpoint') throw new Error('no checkpoint');
    expect(again.iteration).toBe(2);
    expect(Buffer.from(again.blob).equals(Buffer.from(cp.blob))).toBe(true);

    // And a resumed run's next row is iteration 2, not 0.
    const r3 = recorder();
    const rc3 = new RunController(
      r3.post,
      () => links,
      async () => cpu,
    );
    await rc3.start(1, 'a', config, { kind: 'fresh' }, true, { ...cp, rows: r.rows() });
    await rc3.stepOne();
    expect(r3.rows().map((x) => x.iteration)).toEqual([2]);
    await rc3.reset();
  }, 60_000);

  it('resumes from a checkpoint to the rows the uninterrupted run writes (Adam, streams, counters)', async () => {
    // StarPO-S (a critic, so two optimizers) keeping groups at random (the filter's stream), with
    // evaluation and the MI rollouts of the frozen base (their own stream) on every other iteration.
    const c: Config = {
      ...applyAlgorithm(tinyRunConfig({}), 'starpo-s'),
      groups: 4,
      filterOrder: 'random',
      iterations: 6,
      checkpointEvery: 3,
      evalEvery: 2,
      evalEpisodes: 2,
      miEvery: 2,
      miSamples: 2,
      lr: 0.01,
    };
    const steady = (rows: MetricRow[]) => rows.map((row) => rowWithout(row, isMachineKey));
    const links = [link()];
    const run = async (resume?: ResumePoint) => {
      const r = recorder();
      const rc = new RunController(
        r.post,
        () => links,
        async () => cpu,
      );
      await rc.start(1, 'a', c, { kind: 'fresh' }, true, resume);
      // The last step finishes the run: its rows flushed, its final checkpoint sent.
      for (let i = resume?.iteration ?? 0; i < c.iterations; i++) await rc.stepOne();
      expect(r.got.some((m) => m.type === 'finished')).toBe(true);
      return r;
    };
    const whole = await run();
    const cp = whole.got.find((m) => m.type === 'checkpoint' && m.iteration === 3);
    if (cp?.type !== 'checkpoint') throw new Error('no checkpoint at iteration 3');
    expect(cp.manifest.training?.optimizers.critic?.steps).toBeGreaterThan(0);
    const before = whole.rows().filter((x) => x.iteration < 3);
    const after = steady(whole.rows().filter((x) => x.iteration >= 3));
    expect(after.map((x) => x.iteration)).toEqual([3, 4, 5]);

    const resumed = await run({ iteration: 3, manifest: cp.manifest, blob: cp.blob, rows: before });
    expect(steady(resumed.rows())).toEqual(after);
    // Without the training state (a checkpoint from before it was saved) the run goes on, differently.
    const { training: _dropped, ...old } = cp.manifest;
    const fresh = await run({ iteration: 3, manifest: old, blob: cp.blob, rows: before });
    expect(steady(fresh.rows()).map((x) => x.iteration)).toEqual([3, 4, 5]);
    expect(steady(fresh.rows())).not.toEqual(after);
  }, 120_000);

  it('hands an iteration that failed on a lost GPU to onGpuFault, not to the run errors', async () => {
    const gpuReport: BackendReport = { ...cpu, backend: 'webgpu' };
    const run = async (fail: string, lost: boolean) => {
      const r = recorder();
      const faults: string[] = [];
      const links = [link(fail)];
      const rc = new RunController(
        r.post,
        () => links,
        async () => gpuReport,
        (m) => faults.push(m),
        () => lost,
      );
      await rc.start(1, 'g', config, { kind: 'fresh' }, false);
      await settle(rc);
      await rc.reset();
      return { faults, errors: r.got.filter((m) => m.type === 'runError') };
    };
    const lost = await run('stale reply', true);
    expect(lost.faults).toHaveLength(1);
    expect(lost.faults[0]).toMatch(/failed on the GPU: env worker: stale reply/);
    expect(lost.errors).toHaveLength(0);
    const mapped = await run("Failed to execute 'mapAsync' on 'GPUBuffer'", false);
    expect(mapped.faults).toHaveLength(1);
    const plain = await run('unknown env id', false);
    expect(plain.faults).toHaveLength(0);
    expect(plain.errors).toHaveLength(1);
  }, 60_000);

  it('a second worker lost with the critic goes to the recovery; one lost beside GRPO is a notice', async () => {
    const run = async (algorithm: 'starpo-ppo' | 'starpo-grpo', crashAfter: number) => {
      const r = recorder();
      const open = () => pairPort({ crashAfter, pools: inProcessPools });
      const rc = new RunController(
        r.post,
        () => [link()],
        async () => cpu,
        undefined,
        () => false,
        () => ({ second: { criticHost: remoteCritic(open), referenceHost: remoteReference(open) } }),
      );
      // Measured at 0 and 2: without a critic the worker's side takes those.
      const c = { ...applyAlgorithm(config, algorithm), iterations: 4, evalEvery: 2, evalEpisodes: 2 };
      await rc.start(1, algorithm, c, { kind: 'fresh' }, false);
      await settle(rc);
      await rc.reset();
      const of = (type: string) => r.got.filter((m) => m.type === type);
      return { r, of };
    };
    // The critic's state is gone with its worker: no run error, the page resumes from a checkpoint.
    const ppo = await run('starpo-ppo', 3); // mid-run
    expect(ppo.of('runError')).toEqual([]);
    expect(ppo.of('secondWorkerFault')).toEqual([
      {
        type: 'secondWorkerFault',
        runId: 'starpo-ppo',
        message: 'the run’s second worker, which held its critic, failed (critic worker: the worker crashed)',
      },
    ]);
    expect(ppo.of('finished')).toEqual([]);
    // Without a critic this worker takes the share: said once, and the run finishes.
    const grpo = await run('starpo-grpo', 2);
    expect(grpo.of('secondWorkerFault')).toEqual([]);
    expect(grpo.of('notice')).toEqual([
      {
        type: 'notice',
        runId: 'starpo-grpo',
        message:
          'the second worker failed; this thread takes its share: reference worker: the worker crashed',
      },
    ]);
    expect(grpo.r.rows().map((x) => x.iteration)).toEqual([0, 1, 2, 3]);
    expect(grpo.of('finished')).toHaveLength(1);
  }, 60_000);
});
