// The run session as its drivers use it (the CLI's train, the page's train worker): iterating in
// the background, paused after the iteration in flight, stepped by one, stopped, and resumed in a
// second session from a checkpoint, each writing the rows of the uninterrupted run (clocks aside).
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import type { Config } from '../config.js';
import { isClockKey, type MetricRow, rowWithout } from '../metrics/keys.js';
import { createPolicy, disposeModel } from '../model/params.js';
import { Rng } from '../rng.js';
import { InProcessEnvPool } from './envPool.js';
import { type ResumeFrom, RunSession, type SessionHooks } from './runSession.js';
import { SideEnv } from './sideEnv.fixture.js';
import { tinyConfig, tok } from './tinyRun.fixture.js';

const MC = { vocabSize: tok.size, dModel: 16, nLayers: 1, nHeads: 2, context: 128, mlpRatio: 2 };

/** A session of `config` on SideEnv from a base policy made of the seed; rows recorded. */
function sideSession(config: Config, hooks?: SessionHooks, resume?: ResumeFrom) {
  const base = { policy: createPolicy(MC, new Rng(config.seed).fork('policy')), tokenizer: tok };
  const rows: MetricRow[] = [];
  const session = new RunSession({
    config,
    base,
    pools: {
      pool: new InProcessEnvPool(() => new SideEnv()),
      evalPool: new InProcessEnvPool(() => new SideEnv()),
    },
    callbacks: { onMetrics: (r) => rows.push(r) },
    ...(hooks ? { hooks } : {}),
    ...(resume ? { resume } : {}),
  });
  return {
    session,
    rows,
    dispose() {
      session.dispose();
      disposeModel(base.policy);
    },
  };
}

const clockless = (rows: MetricRow[]) => rows.map((r) => rowWithout(r, isClockKey));

beforeAll(async () => {
  await setupNodeBackend('cpu');
});

describe('RunSession', () => {
  const config = tinyConfig('starpo-ppo', { iterations: 4, evalEvery: 0, miEvery: 0 });
  let uninterrupted: MetricRow[] = [];

  beforeAll(async () => {
    const s = sideSession(config);
    expect(await s.session.run()).toBe('done');
    uninterrupted = clockless(s.rows);
    s.dispose();
  });

  it('runs the planned iterations, then refuses another step', async () => {
    expect(uninterrupted.map((r) => r.iteration)).toEqual([0, 1, 2, 3]);
    const s = sideSession(config);
    for (let i = 0; i < 4; i++) await s.session.step();
    expect(s.session.done).toBe(true);
    await expect(s.session.step()).rejects.toThrow('the run has done all its iterations');
    expect(clockless(s.rows)).toEqual(uninterrupted);
    s.dispose();
  });

  it('pauses after the iteration in flight, steps by one while paused, and runs on to the same rows', async () => {
    const seen: number[] = [];
    const s = sideSession(config, {
      after: (x) => {
        seen.push(x.iteration);
        if (x.iteration === 1) x.requestPause();
      },
    });
    const running = s.session.run();
    expect(s.session.running).toBe(true);
    await expect(s.session.step()).rejects.toThrow('pause the run before stepping');
    expect(await running).toBe('paused');
    expect(s.session.iteration).toBe(1);
    await s.session.step();
    expect(s.session.iteration).toBe(2);
    expect(await s.session.run()).toBe('done');
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(clockless(s.rows)).toEqual(uninterrupted);
    s.dispose();
  });

  it('stops after the iteration in flight', async () => {
    const s = sideSession(config, { after: (x) => x.requestStop() });
    expect(await s.session.run()).toBe('stopped');
    expect(s.session.iteration).toBe(1);
    expect(s.session.stopRequested).toBe(true);
    s.dispose();
  });

  it('calls what `before` returns once the iteration ends, also when it throws', async () => {
    const calls: string[] = [];
    const s = sideSession(config, {
      before: (x) => {
        const it = x.iteration;
        calls.push(`before ${it}`);
        return () => calls.push(`ended ${it}`);
      },
    });
    await s.session.step();
    s.session.trainer.step = () => Promise.reject(new Error('lost'));
    await expect(s.session.step()).rejects.toThrow('lost');
    expect(calls).toEqual(['before 0', 'ended 0', 'before 1', 'ended 1']);
    s.dispose();
  });

  it('a second session resumed from a checkpoint writes the rest of the uninterrupted rows', async () => {
    const first = sideSession(config);
    await first.session.step();
    await first.session.step();
    const saved = await first.session.checkpoint();
    const before = clockless(first.rows);
    first.dispose();
    const tensors = tf.memory().numTensors;
    const second = sideSession(config, undefined, {
      iteration: 2,
      manifest: saved.manifest,
      blob: saved.blob,
      rows: first.rows,
    });
    expect(await second.session.run()).toBe('done');
    expect([...before, ...clockless(second.rows)]).toEqual(uninterrupted);
    second.dispose();
    expect(tf.memory().numTensors).toBe(tensors);
  });
});
