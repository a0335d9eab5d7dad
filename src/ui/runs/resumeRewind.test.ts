import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../core/config.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import type { FromTrainWorker, ResumePoint, RunReport } from '../../workers/protocol.js';
import { RunRecovery } from '../../workers/recovery.js';
import {
  closeShardLinks,
  shardLink,
  tinyRunConfig,
  WASM_REPORT as wasm,
} from '../../workers/runController.fixture.js';
import { RunController } from '../../workers/runController.js';
import { useApp } from '../store/index.js';

const config: Config = tinyRunConfig({ iterations: 6, checkpointEvery: 1, backend: 'wasm' });

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A worker message as the client hands it to listeners (a batch whole). */
function reportsOf(m: FromTrainWorker): RunReport[] {
  switch (m.type) {
    case 'reports':
    case 'progress':
    case 'checkpoint':
    case 'finished':
    case 'runError':
      return [m];
    default:
      return [];
  }
}

/** The UI's view of a run whose worker was killed after `messages`: where it resumes, what the slice holds. */
async function killAfter(messages: readonly FromTrainWorker[]) {
  let resume: ResumePoint | undefined;
  let recovered: number | null = null;
  const rec = new RunRecovery({
    restart: async () => wasm,
    start: async (_id, _config, _base, _paused, point) => {
      resume = point;
      return { info: {} as never, report: wasm };
    },
    emit: (r) => {
      if (r.type === 'recovered' && r.runId !== null) recovered = r.iteration;
    },
  });
  rec.began('k', config, { kind: 'fresh' }, false);
  const s = useApp.getState();
  s.beginRun('k', 'killed', config.iterations, config.env);
  for (const r of messages.flatMap(reportsOf)) {
    rec.observe(r);
    if (r.type === 'reports') useApp.getState().addReports(r.rows, [], []);
  }
  await rec.fault('crash', 'the train worker was killed');
  if (recovered !== null) useApp.getState().rewindRun(recovered);
  return { resume, recovered: recovered as number | null, slice: useApp.getState() };
}

beforeAll(async () => {
  await setupNodeBackend('wasm');
});
afterAll(closeShardLinks);

describe('a worker killed mid-run resumes with the rows before its checkpoint', () => {
  it('holds rows 0..k-1 after a rewind to k, wherever the kill falls, and goes on with row k', async () => {
    const got: FromTrainWorker[] = [];
    const links = [shardLink()];
    const rc = new RunController(
      (m) => got.push(m),
      () => links,
      async () => wasm,
    );
    // Two single steps, then the background loop (whose reports are throttled) to the end.
    await rc.start(1, 'k', config, { kind: 'fresh' }, true);
    await rc.stepOne();
    await rc.stepOne();
    rc.resume();
    for (let k = 0; k < 500 && !got.some((m) => m.type === 'finished'); k++)
      await new Promise((r) => setTimeout(r, 20));
    expect(got.some((m) => m.type === 'finished')).toBe(true);
    // The iteration counter never disagrees with the rows sent before it.
    let sent = 0;
    for (const m of got) {
      if (m.type === 'reports') sent += m.rows.length;
      if (m.type === 'progress') expect(m.iteration).toBe(sent);
    }

    const resumedAt = new Set<number>();
    let lastCut: FromTrainWorker[] | null = null;
    for (let i = 0; i < got.length; i++) {
      const prefix = got.slice(0, i + 1);
      const { resume, recovered, slice } = await killAfter(prefix);
      if (recovered === null) continue; // the run had finished: nothing to resume
      resumedAt.add(recovered);
      expect(resume?.iteration ?? 0).toBe(recovered);
      expect((resume?.rows ?? []).map((r) => r.iteration)).toEqual(range(recovered));
      expect(slice.iteration).toBe(recovered);
      expect(slice.rows.map((r) => r.iteration)).toEqual(range(recovered));
      const last = prefix.at(-1);
      if (last?.type === 'checkpoint' && last.iteration < config.iterations) lastCut = prefix;
    }
    // Before any checkpoint, after each stepped one, and after the final one.
    for (const k of [0, 1, 2, config.iterations]) expect(resumedAt.has(k)).toBe(true);

    // Killed right after the last checkpoint before the end arrived: the resumed run goes on
    // with the next row.
    if (!lastCut) throw new Error('no checkpoint before the end');
    const { resume } = await killAfter(lastCut);
    const k = resume?.iteration ?? 0;
    expect(k).toBeGreaterThanOrEqual(2);
    const again: FromTrainWorker[] = [];
    const rc2 = new RunController(
      (m) => again.push(m),
      () => links,
      async () => wasm,
    );
    await rc2.start(1, 'k', config, { kind: 'fresh' }, true, resume);
    await rc2.stepOne();
    for (const r of again.flatMap(reportsOf))
      if (r.type === 'reports') useApp.getState().addReports(r.rows, [], []);
    expect(useApp.getState().rows.map((r) => r.iteration)).toEqual(range(k + 1));
    await rc2.reset();
  }, 60_000);
});
