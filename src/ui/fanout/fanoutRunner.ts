// Seeds side by side: the same config on N seeds at once, one train worker per lane (each lane
// its own TrainClient, with its own env workers), at most `parallel` at a time and the rest
// queued; optionally a frozen-control lane (lr 0) on every seed. Each lane writes exactly the
// rows a single run of its config writes (same seed and backend, same run: tested against the
// CLI in parity.spec.ts). A finished lane is stored as a run (the Runs tab) and the group as a
// sweep over lr × seed (the Sweeps dialog: reload, export, compare), saved after every lane.
import type { Config } from '../../core/config.js';
import { FROZEN_CONTROL, isFrozenControl } from '../../core/rl/frozenControl.js';
import { TrainClient } from '../../workers/client.js';
import { refreshRuns } from '../runs/library.js';
import type { Lane } from '../store/fanoutSlice.js';
import { useApp } from '../store/index.js';
import type { SweepRecord } from '../store/sweepSlice.js';
import { runToEnd } from '../sweeps/runToEnd.js';
import { refreshSweeps } from '../sweeps/sweepRunner.js';
import { listSweeps, putSweep, uniqueSweepName } from '../sweeps/sweepsDb.js';

/**
 * A group's stop switch, made by the panel for each group (never module state): Stop marks it
 * cancelled, aborts every lane in flight and closes their train workers; queued lanes never start.
 */
export interface FanoutControl {
  cancelled: boolean;
  clients: Set<TrainClient>;
  aborts: Set<(e: Error) => void>;
}

export function newFanoutControl(): FanoutControl {
  return { cancelled: false, clients: new Set(), aborts: new Set() };
}

/** Stops a running group: lanes in flight and queued end as "stopped"; finished lanes are kept. */
export async function stopFanout(control: FanoutControl): Promise<void> {
  control.cancelled = true;
  for (const abort of control.aborts) abort(new Error('stopped'));
  for (const c of control.clients) c.dispose();
  const { lanes, patchLane } = useApp.getState();
  lanes.forEach((l, i) => {
    if (l.state === 'queued' || l.state === 'running') patchLane(i, { state: 'stopped' });
  });
}

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

/** A lane's config: the group's on its seed, made the frozen control (lr 0) for the frozen lane. */
export function laneConfig(config: Config, lane: Pick<Lane, 'seed' | 'frozen'>): Config {
  return { ...config, seed: lane.seed, ...(lane.frozen ? FROZEN_CONTROL : {}) };
}

/** A lane's path in the group's sweep (lr × seed, as a CLI sweep lays runs out). */
const lanePath = (c: Config) => `lr=${c.lr}/${c.algorithm}/seed-${c.seed}`;

async function runLane(
  client: TrainClient,
  record: SweepRecord,
  i: number,
  config: Config,
  control: FanoutControl,
): Promise<void> {
  const { patchLane } = useApp.getState();
  patchLane(i, { state: 'running' });
  let abort: ((e: Error) => void) | null = null;
  try {
    const { files, summary } = await runToEnd(client, {
      runId: `${record.id}:${i}`,
      name: `${record.name} · seed ${config.seed}${isFrozenControl(config) ? ' · frozen' : ''}`,
      config,
      path: lanePath(config),
      preset: `lr=${config.lr}`,
      onReports: (rows, events) =>
        patchLane(i, { rows: [...rows], events: [...events], iteration: rows.length }),
      onAbortable: (a) => {
        if (abort) control.aborts.delete(abort);
        abort = a;
        if (a) control.aborts.add(a);
      },
    });
    patchLane(i, { state: 'finished', rows: files.metrics, summary });
    record.runs.push(files);
    await putSweep(record);
  } catch (err) {
    patchLane(
      i,
      control.cancelled ? { state: 'stopped' } : { state: 'failed', error: (err as Error).message },
    );
  } finally {
    if (abort) control.aborts.delete(abort);
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
  control: FanoutControl = newFanoutControl(),
): Promise<void> {
  const s = useApp.getState();
  if (s.fanoutRunning) throw new Error('seeds are already running side by side');
  const lanes = planLanes(seeds, frozen, config.iterations);
  const record: SweepRecord = {
    id: `group-${crypto.randomUUID()}`,
    name: uniqueSweepName(
      `${config.algorithm} · ${config.env.replace(/^minigrid\//, '')} · ${seeds.length} seeds side by side`,
      (await listSweeps()).map((x) => x.name),
    ),
    createdAt: Date.now(),
    status: 'running',
    axes: [
      {
        key: 'lr',
        values: [...new Set([String(config.lr), ...(frozen ? [String(FROZEN_CONTROL.lr)] : [])])],
      },
    ],
    seeds: [...seeds],
    planned: lanes.length,
    runs: [],
  };
  s.setFanout({ lanes, fanoutRunning: true });
  await putSweep(record);
  let next = 0;
  const worker = async (): Promise<void> => {
    if (control.cancelled) return;
    const client = new TrainClient({ lanes: Math.min(parallel, lanes.length) });
    control.clients.add(client);
    try {
      await client.init(config.backend, config.modelSize);
      while (next < lanes.length && !control.cancelled) {
        const i = next++;
        await runLane(client, record, i, laneConfig(config, lanes[i] as Lane), control);
      }
    } catch (err) {
      // The worker could not start: its remaining lanes are failed (stopped, after Stop), not left queued.
      const { lanes: now, patchLane } = useApp.getState();
      now.forEach((l, i) => {
        if (l.state === 'queued' || l.state === 'running')
          patchLane(
            i,
            control.cancelled ? { state: 'stopped' } : { state: 'failed', error: (err as Error).message },
          );
      });
    } finally {
      control.clients.delete(client);
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
