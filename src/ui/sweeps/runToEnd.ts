// One run in a train worker from start to finish, as the sweeps and seeds side by side run them:
// its reports collected by run id (the page's own controller ignores ids it did not start), then
// stored as a finished run in the Runs tab, and returned in the CLI's sweep layout.
import type { Config } from '../../core/config.js';
import { summaryFile } from '../../core/files/summaryFile.js';
import type { SweepRunFiles } from '../../core/files/sweepBundle.js';
import type { RunSummary } from '../../core/metrics/detector.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import type { RunReport, TrainClient } from '../../workers/client.js';
import { baseFor } from '../controller/baseFor.js';
import { refreshRuns } from '../runs/library.js';
import * as db from '../runs/runsDb.js';

export interface RunToEndOptions {
  runId: string;
  /** Its name in the Runs tab. */
  name: string;
  config: Config;
  /** Its place in the sweep layout: `<preset>/<algo>/seed-<s>`. */
  path: string;
  preset: string;
  /** Called with everything so far as reports and progress arrive. */
  onReports?: (rows: readonly MetricRow[], events: readonly TrainerEvent[]) => void;
  onProgress?: (iteration: number) => void;
  /** Receives the function that aborts the run in flight (a cancelled sweep calls it). */
  onAbortable?: (abort: ((e: Error) => void) | null) => void;
}

/** Starts `o.config` in `client`, waits for its end, stores it as a run; returns its files and verdict. */
export async function runToEnd(
  client: TrainClient,
  o: RunToEndOptions,
): Promise<{ files: SweepRunFiles; summary: RunSummary }> {
  const rows: MetricRow[] = [];
  const events: TrainerEvent[] = [];
  let resolveDone: (s: RunSummary) => void = () => {};
  let rejectDone: (e: Error) => void = () => {};
  const done = new Promise<RunSummary>((res, rej) => {
    resolveDone = res;
    rejectDone = rej;
  });
  done.catch(() => {}); // an abort while the start is still in flight is reported by the start's own rejection
  o.onAbortable?.(rejectDone);
  const off = client.onReport((r: RunReport) => {
    if (r.runId !== o.runId) return;
    if (r.type === 'reports') {
      rows.push(...r.rows);
      events.push(...r.events);
      o.onReports?.(rows, events);
    } else if (r.type === 'progress') o.onProgress?.(r.iteration);
    else if (r.type === 'finished') resolveDone(r.summary);
    else if (r.type === 'runError') rejectDone(new Error(r.message));
  });
  const t0 = performance.now();
  try {
    const base = await baseFor(o.config);
    const { report } = await client.start(o.runId, o.config, base.choice, false);
    const summary = await done;
    const wallSeconds = (performance.now() - t0) / 1000;
    rows.sort((a, b) => a.iteration - b.iteration);
    await db.storeRun({
      meta: {
        id: o.runId,
        name: o.name,
        createdAt: Date.now(),
        updatedAt: Date.now(),
        status: 'finished',
        config: o.config,
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
    void refreshRuns();
    const files: SweepRunFiles = {
      path: o.path,
      preset: o.preset,
      algo: o.config.algorithm,
      seed: o.config.seed,
      config: o.config,
      metrics: rows,
      events,
      summary: summaryFile(o.config, summary, {
        iterations: rows.length,
        wallSeconds,
        backend: report.backend,
        base: base.label,
      }),
    };
    return { files, summary };
  } finally {
    off();
    o.onAbortable?.(null);
  }
}
