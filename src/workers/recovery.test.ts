// Worker restarts after faults, with a fake host: a GPU fault restarts on WASM and continues from
// the last checkpoint with the rows before it; a crash, or a second worker lost with its critic,
// keeps the run's backend; with no checkpoint
// the run starts over at 0; faults during a recovery join it; repeated faults without progress
// give up with a run error; a fault between runs only restarts the worker.
import { describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../core/config.js';
import type { MetricRow } from '../core/metrics/keys.js';
import type { BackendPreference, BackendReport } from './backendInfo.js';
import type { BaseChoice, ResumePoint, RunReport } from './protocol.js';
import { MAX_RESTARTS, type RecoveryHost, RunRecovery } from './recovery.js';

const report = (backend: 'webgpu' | 'wasm' | 'cpu'): BackendReport => ({
  backend,
  requested: backend,
  adapter: null,
  wasm: null,
  fallbacks: [],
});

interface Call {
  runId: string;
  config: Config;
  paused: boolean;
  resume?: ResumePoint;
}

function fakeHost(failStart = false) {
  const restarts: BackendPreference[] = [];
  const starts: Call[] = [];
  const emitted: RunReport[] = [];
  let release: () => void = () => {};
  let gate: Promise<void> | null = null;
  const host: RecoveryHost = {
    async restart(backend) {
      restarts.push(backend);
      if (gate) await gate;
      return report(backend === 'auto' ? 'webgpu' : backend);
    },
    async start(runId, config, _base, paused, resume) {
      starts.push({ runId, config, paused, ...(resume ? { resume } : {}) });
      if (failStart) throw new Error('checkpoint: bad manifest');
      return { info: {} as never, report: report(config.backend === 'auto' ? 'webgpu' : config.backend) };
    },
    emit: (r) => emitted.push(r),
  };
  const hold = () => {
    gate = new Promise((r) => {
      release = r;
    });
  };
  return { host, restarts, starts, emitted, hold, release: () => release() };
}

const config: Config = { ...defaultConfig(), backend: 'webgpu' };
const base: BaseChoice = { kind: 'fresh' };
const rows = (from: number, to: number): MetricRow[] =>
  Array.from({ length: to - from }, (_, i) => ({ iteration: from + i }));
const blob = new Uint8Array([1, 2, 3, 4]);

function observeRun(rec: RunRecovery, n: number, checkpointAt: number | null): void {
  rec.began('r1', config, base, false);
  rec.observe({ type: 'progress', runId: 'r1', iteration: 0, planned: 10, phase: 'running' });
  rec.observe({ type: 'reports', runId: 'r1', rows: rows(0, n), events: [], samples: [] });
  if (checkpointAt !== null)
    rec.observe({
      type: 'checkpoint',
      runId: 'r1',
      iteration: checkpointAt,
      manifest: { m: 1 } as never,
      blob,
    });
}

describe('RunRecovery', () => {
  it('force-stops a run whose iteration will not end: fresh workers on its backend, finished as stopped from its rows', async () => {
    const h = fakeHost();
    const rec = new RunRecovery(h.host);
    // Success rising, so the summary judged here has a peak above its start.
    rec.began('r1', config, base, false);
    rec.observe({
      type: 'reports',
      runId: 'r1',
      rows: Array.from({ length: 8 }, (_, i) => ({ iteration: i, 'rollout/successRate': i / 10 })),
      events: [],
      samples: [],
    });
    await rec.forceStop();
    expect(h.restarts).toEqual(['webgpu']);
    expect(h.starts).toEqual([]);
    const fin = h.emitted.at(-1);
    if (fin?.type !== 'finished') throw new Error(`expected finished, got ${fin?.type}`);
    expect(fin.reason).toBe('stopped');
    expect(fin.runId).toBe('r1');
    expect(fin.summary.startSuccess).toBeCloseTo(0.2); // iterations 0–4
    expect(fin.summary.finalSuccess).toBeCloseTo(0.35); // all 8 (fewer than 10)
    // The run is no longer tracked: a later fault only restarts the worker.
    await rec.fault('crash', 'killed');
    expect(h.starts).toEqual([]);
  });

  it('moves a run to WASM after a GPU fault, from its last checkpoint with the rows before it', async () => {
    const h = fakeHost();
    const rec = new RunRecovery(h.host);
    observeRun(rec, 5, 3);
    await rec.fault('gpu-lost', 'the WebGPU device was lost (destroyed)');
    expect(h.restarts).toEqual(['wasm']);
    expect(h.starts).toHaveLength(1);
    const s = h.starts[0] as Call;
    expect(s.config.backend).toBe('wasm');
    expect(s.paused).toBe(false);
    expect(s.resume?.iteration).toBe(3);
    expect(s.resume?.blob).toBe(blob);
    expect(s.resume?.rows.map((r) => r.iteration)).toEqual([0, 1, 2]);
    expect(h.emitted.map((r) => r.type)).toEqual(['recovering', 'recovered']);
    expect(h.emitted[1]).toMatchObject({
      runId: 'r1',
      fault: 'gpu-lost',
      iteration: 3,
      report: { backend: 'wasm' },
    });
  });

  it('restarts a crashed worker on the same backend, keeping a paused run paused', async () => {
    const h = fakeHost();
    const rec = new RunRecovery(h.host);
    observeRun(rec, 4, 4);
    rec.observe({ type: 'progress', runId: 'r1', iteration: 4, planned: 10, phase: 'paused' });
    await rec.fault('crash', 'the train worker was killed');
    expect(h.restarts).toEqual(['webgpu']);
    expect(h.starts[0]?.config.backend).toBe('webgpu');
    expect(h.starts[0]?.paused).toBe(true);
    expect(h.starts[0]?.resume?.iteration).toBe(4);
  });

  it('restarts after a second worker lost with its critic on the same backend, from the checkpoint', async () => {
    const h = fakeHost();
    const rec = new RunRecovery(h.host);
    observeRun(rec, 6, 5);
    await rec.fault('second-worker', 'the run’s second worker, which held its critic, failed');
    expect(h.restarts).toEqual(['webgpu']);
    expect(h.starts[0]?.config.backend).toBe('webgpu');
    expect(h.starts[0]?.resume?.iteration).toBe(5);
    expect(h.starts[0]?.resume?.rows.map((r) => r.iteration)).toEqual([0, 1, 2, 3, 4]);
    expect(h.emitted.at(-1)).toMatchObject({ type: 'recovered', fault: 'second-worker', iteration: 5 });
  });

  it('starts over from the base at iteration 0 when no checkpoint was taken', async () => {
    const h = fakeHost();
    const rec = new RunRecovery(h.host);
    observeRun(rec, 2, null);
    await rec.fault('gpu-error', 'out of memory');
    expect(h.starts[0]?.resume).toBeUndefined();
    expect(h.emitted.at(-1)).toMatchObject({ type: 'recovered', iteration: 0 });
  });

  it('joins faults that arrive during a recovery into one restart', async () => {
    const h = fakeHost();
    const rec = new RunRecovery(h.host);
    observeRun(rec, 3, 2);
    h.hold();
    const a = rec.fault('gpu-lost', 'lost');
    const b = rec.fault('crash', 'worker error after the loss');
    expect(rec.recovering).toBe(true);
    h.release();
    await Promise.all([a, b]);
    expect(h.restarts).toEqual(['wasm']);
    expect(h.starts).toHaveLength(1);
    expect(rec.recovering).toBe(false);
  });

  it(`gives up with a run error after ${MAX_RESTARTS} restarts in a row without a new iteration`, async () => {
    const h = fakeHost();
    const rec = new RunRecovery(h.host);
    observeRun(rec, 3, 2);
    for (let k = 0; k < MAX_RESTARTS; k++) await rec.fault('crash', `crash ${k}`);
    expect(h.starts).toHaveLength(MAX_RESTARTS);
    // One new row resets the count; then MAX_RESTARTS more faults are still recovered.
    rec.observe({ type: 'reports', runId: 'r1', rows: rows(2, 3), events: [], samples: [] });
    for (let k = 0; k < MAX_RESTARTS; k++) await rec.fault('crash', `again ${k}`);
    expect(h.starts).toHaveLength(2 * MAX_RESTARTS);
    await rec.fault('crash', 'once too often');
    expect(h.starts).toHaveLength(2 * MAX_RESTARTS);
    const last = h.emitted.at(-1);
    expect(last?.type).toBe('runError');
    expect(last?.type === 'runError' && last.message).toMatch(
      /3 restarts in a row without progress.*once too often/,
    );
    // The run is no longer tracked: a later fault restarts the worker only.
    await rec.fault('crash', 'idle');
    expect(h.starts).toHaveLength(2 * MAX_RESTARTS);
    expect(h.emitted.at(-1)).toMatchObject({ type: 'recovered', runId: null });
  });

  it('reports a run error when the run cannot be built again, and forgets finished runs', async () => {
    const h = fakeHost(true);
    const rec = new RunRecovery(h.host);
    observeRun(rec, 3, 2);
    await rec.fault('gpu-lost', 'lost');
    expect(h.emitted.at(-1)).toMatchObject({ type: 'runError', runId: 'r1' });
    const h2 = fakeHost();
    const rec2 = new RunRecovery(h2.host);
    observeRun(rec2, 3, 2);
    rec2.observe({ type: 'finished', runId: 'r1', summary: {} as never, reason: 'completed' });
    await rec2.fault('gpu-lost', 'lost');
    expect(h2.starts).toHaveLength(0);
    expect(h2.emitted.at(-1)).toMatchObject({ type: 'recovered', runId: null, report: { backend: 'wasm' } });
  });
});
