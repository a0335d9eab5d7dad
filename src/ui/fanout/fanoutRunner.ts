// Seeds side by side: the same config on N seeds at once, one train worker per lane (each lane
// its own TrainClient, with its own env workers), at most `parallel` at a time and the rest
// queued; optionally a frozen-control lane (lr 0) on every seed. Each lane writes exactly the
// rows a single run of its config writes (same seed and backend, same run: tested against the
// CLI in parity.spec.ts). A finished lane is stored as a run (the Runs tab) and the group as a
// sweep over lr × seed (the Sweeps dialog: reload, export, compare), saved after every lane.
import type { Config } from '../../core/config.js';
import type { SweepRunFiles } from '../../core/files/sweepBundle.js';
import type { RunSummary } from '../../core/metrics/detector.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import { summaryFile } from '../../core/metrics/summaryFile.js';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import { type RunReport, TrainClient } from '../../workers/client.js';
import { baseFor } from '../controller/baseFor.js';
import { refreshRuns } from '../runs/library.js';
import * as db from '../runs/runsDb.js';
import { useApp } from '../store/index.js';
import { refreshSweeps } from '../sweeps/sweepRunner.js';
import { putSweep, type SweepRecord } from '../sweeps/sweepsDb.js';
import type { Lane } from './fanoutSlice.js';

/** Lanes at once by default: the logical cores minus one (the page itself), at least 1. */
export function defaultParallel(cores: number | undefined): number {
  return Math.max(1, (cores ?? 2) - 1);
}

/** The lanes of a group: every seed, each followed by its frozen control when asked. */
export function planLanes(seeds: readonly number[], frozen: boolean, planned: number): Lane[] {
  return seeds.flatMap((seed) =>
    [false, ...(frozen ? [true] : [])].map((f) => ({
      seed,
      frozen: f,
      state: 'queued' as const,
      iteration: 0,
      planned,
      rows: [],
      events: [],
      summary: null,
      error: null,
    })),
  );
}

/** A lane's config: the group's on its seed, at lr 0 for the frozen control. */
export function laneConfig(config: Config, lane: Pick<Lane, 'seed' | 'frozen'>): Config {
  return { ...config, seed: lane.seed, ...(lane.frozen ? { lr: 0 } : {}) };
}

/** A lane's path in the group's sweep (lr × seed, as a CLI sweep lays runs out). */
const lanePath = (c: Config) => `lr=${c.lr}/${c.algorithm}/seed-${c.seed}`;

async function runLane(client: TrainClient, record: SweepRecord, i: number, config: Config): Promise<void> {
  const { patchLane } = useApp.getState();
  const runId = `${record.id}:${i}`;
  const rows: MetricRow[] = [];
  const events: TrainerEvent[] = [];
  let resolveDone: (s: RunSummary) => void = () => {};
  let rejectDone: (e: Error) => void = () => {};
  const done = new Promise<RunSummary>((res, rej) => {
    resolveDone = res;
    rejectDone = rej;
  });
  const off = client.onReport((r: RunReport) => {
    if (r.runId !== runId) return;
    if (r.type === 'reports') {
      rows.push(...r.rows);
      events.push(...r.events);
      patchLane(i, { rows: [...rows], events: [...events], iteration: rows.length });
    } else if (r.type === 'finished') resolveDone(r.summary);
    else if (r.type === 'runError') rejectDone(new Error(r.message));
  });
  patchLane(i, { state: 'running' });
  const t0 = performance.now();
  try {
    const base = await baseFor(config);
    const { report } = await client.start(runId, config, base.choice, false);
    const summary = await done;
    rows.sort((a, b) => a.iteration - b.iteration);
    const wall = (performance.now() - t0) / 1000;
    patchLane(i, { state: 'finished', summary, rows: [...rows], iteration: rows.length });
    await db.storeRun({
      meta: {
        id: runId,
        name: `${record.name} · seed ${config.seed}${config.lr === 0 ? ' · frozen' : ''}`,
        createdAt: Date.now(),
        updatedAt: Date.now(),
        status: 'finished',
        config,
        iteration: rows.length,
        summary,
        base: {
          id: base.choice.kind === 'fresh' ? 'fresh' : base.label,
          label: base.label,
          untrained: base.untrained,
        },
        backend: report.backend,
        hasCheckpoint: false,
      },
      rows,
      events,
      samples: [],
      checkpoint: null,
    });
    const files: SweepRunFiles = {
      path: lanePath(config),
      preset: `lr=${config.lr}`,
      algo: config.algorithm,
      seed: config.seed,
      config,
      metrics: rows,
      events,
      summary: summaryFile(config, summary, {
        iterations: rows.length,
        wallSeconds: wall,
        backend: report.backend,
        base: base.label,
      }),
    };
    record.runs.push(files);
    await putSweep(record);
  } catch (err) {
    patchLane(i, { state: 'failed', error: (err as Error).message });
  } finally {
    off();
  }
}

/**
 * Runs `config` on every seed (and its frozen control when `frozen`), `parallel` lanes at a time,
 * each in its own train worker; resolves when every lane has finished or failed.
 */
export async function runFanout(
  config: Config,
  seeds: readonly number[],
  frozen: boolean,
  parallel: number,
): Promise<void> {
  const s = useApp.getState();
  if (s.fanoutRunning) throw new Error('seeds are already running side by side');
  const lanes = planLanes(seeds, frozen, config.iterations);
  const record: SweepRecord = {
    id: `group-${crypto.randomUUID()}`,
    name: `${config.algorithm} · ${config.env.replace(/^minigrid\//, '')} · ${seeds.length} seeds side by side`,
    createdAt: Date.now(),
    status: 'running',
    axes: [{ key: 'lr', values: [...new Set([String(config.lr), ...(frozen ? ['0'] : [])])] }],
    seeds: [...seeds],
    planned: lanes.length,
    runs: [],
  };
  s.setFanout({ lanes, fanoutRunning: true });
  await putSweep(record);
  let next = 0;
  const worker = async (): Promise<void> => {
    const client = new TrainClient();
    try {
      await client.init(config.backend, config.modelSize);
      while (next < lanes.length) {
        const i = next++;
        await runLane(client, record, i, laneConfig(config, lanes[i] as Lane));
      }
    } catch (err) {
      // The worker could not start: its remaining lanes are failed, not left queued.
      const { lanes: now, patchLane } = useApp.getState();
      now.forEach((l, i) => {
        if (l.state === 'queued' || l.state === 'running')
          patchLane(i, { state: 'failed', error: (err as Error).message });
      });
    } finally {
      client.dispose();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(parallel, lanes.length) }, worker));
    record.status = record.runs.length === lanes.length ? 'finished' : 'stopped';
    await putSweep(record);
  } finally {
    useApp.getState().setFanout({ fanoutRunning: false });
    await refreshRuns();
    await refreshSweeps();
  }
}
