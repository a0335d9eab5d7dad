// The run controller in Node (CPU backend, env shards over MessageChannels): a paused start
// reports nothing, each step adds exactly one metric row, resume iterates, pause stops the
// rows, and stop ends with a final checkpoint and a summary.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../core/config.js';
import type { FromTrainWorker } from './protocol.js';
import {
  closeShardLinks,
  shardLink as link,
  CPU_REPORT as report,
  tinyRunConfig,
} from './runController.fixture.js';
import { RunController } from './runController.js';

const config: Config = tinyRunConfig({
  maxTurns: 2,
  maxTokensPerTurn: 6,
  iterations: 50,
  checkpointEvery: 0,
});

beforeAll(async () => {
  await tf.setBackend('cpu');
});
afterAll(closeShardLinks);

describe('RunController', () => {
  it('pauses, steps exactly one iteration, resumes, pauses and stops with a checkpoint', async () => {
    const got: FromTrainWorker[] = [];
    const links = [link(), link()];
    const rc = new RunController(
      (m) => got.push(m),
      () => links,
      async () => report,
    );
    const rows = () => got.flatMap((m) => (m.type === 'reports' ? m.rows : []));
    await rc.start(1, 'r1', config, { kind: 'fresh' }, true);
    const started = got.find((m) => m.type === 'started');
    expect(started?.type === 'started' && started.info.untrained).toBe(true);
    expect(rows()).toHaveLength(0);

    await rc.stepOne();
    expect(rows().map((r) => r.iteration)).toEqual([0]);
    await rc.stepOne();
    expect(rows().map((r) => r.iteration)).toEqual([0, 1]);
    expect(got.some((m) => m.type === 'reports' && m.samples.length > 0)).toBe(true);

    rc.resume();
    await new Promise((r) => setTimeout(r, 600));
    await rc.pause();
    const afterPause = rows().length;
    expect(afterPause).toBeGreaterThan(2);
    expect(rows().map((r) => r.iteration)).toEqual(Array.from({ length: afterPause }, (_, i) => i));
    await new Promise((r) => setTimeout(r, 200));
    expect(rows().length).toBe(afterPause);
    const last = got.filter((m) => m.type === 'progress').at(-1);
    expect(last?.type === 'progress' && last.phase).toBe('paused');

    rc.setLive({ lr: 0.001 });
    const live = got.flatMap((m) => (m.type === 'reports' ? m.events : [])).find((e) => e.type === 'live');
    expect(live).toMatchObject({ type: 'live', iteration: afterPause, changes: { lr: 0.001 } });
    expect(() => rc.setLive({ groups: 3 })).toThrow(/groups/);

    const tensorsBefore = tf.memory().numTensors;
    await rc.stop();
    const cp = got.find((m) => m.type === 'checkpoint');
    expect(cp?.type === 'checkpoint' && cp.iteration).toBe(afterPause);
    expect(cp?.type === 'checkpoint' && cp.manifest.policy.config.context).toBe(64);
    const fin = got.find((m) => m.type === 'finished');
    expect(fin?.type === 'finished' && fin.reason).toBe('stopped');
    // The run's tensors are freed.
    expect(tf.memory().numTensors).toBeLessThan(tensorsBefore);
    await expect(rc.stepOne()).rejects.toThrow(/no run/);
  }, 60_000);
});
