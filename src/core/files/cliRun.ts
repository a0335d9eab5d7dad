// A CLI run directory (config.json, metrics.jsonl, events.jsonl, summary.json — what
// `starpo train` writes) as the playground's run data, so a run recorded in Node replays in
// the browser and exports as an ordinary run file. The run summary is recomputed by feeding the
// rows through the same echo-trap detector the trainer uses (the CLI's summary.json lacks a
// few fields of it, e.g. the peak's iteration); nothing is invented.
import type { Config } from '../config.js';
import { detectorOptionsFor, EchoTrapDetector, type RunSummary } from '../metrics/detector.js';
import type { MetricRow } from '../metrics/keys.js';
import type { SampledTrajectory, TrainerEvent } from '../rl/trainer.js';
import type { RunData } from './runFile.js';

/** The files of one CLI run directory, already read and parsed. */
export interface CliRunFiles {
  config: Config;
  metrics: MetricRow[];
  events: TrainerEvent[];
  /** summary.json as written by `starpo train` (only `backend` and `base` are read here). */
  summary?: { backend?: string; base?: string } | null;
  /** Sampled trajectories, when the recording kept them (the CLI itself does not). */
  samples?: SampledTrajectory[];
}

/** Parses JSON Lines text (blank lines skipped). */
export function parseJsonl<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/**
 * The detector's summary of a run's rows, exactly as the trainer computes it online; `config`
 * gives the rollouts per iteration its noise bound needs (the detector's default without it).
 */
export function summaryOfRows(rows: readonly MetricRow[], config?: Config): RunSummary {
  const d = new EchoTrapDetector(config ? detectorOptionsFor(config) : {});
  for (const r of rows) d.update(r);
  return d.summary();
}

/** A CLI run directory's contents as the playground's run data (no checkpoint). */
export function cliRunToRunData(files: CliRunFiles, name: string, createdAt: number): RunData {
  const rows = [...files.metrics].sort((a, b) => a.iteration - b.iteration);
  const last = rows.at(-1)?.iteration ?? -1;
  const base = files.summary?.base ?? 'unknown';
  return {
    meta: {
      id: name,
      name,
      createdAt,
      updatedAt: createdAt,
      status: last + 1 >= files.config.iterations ? 'finished' : 'stopped',
      config: files.config,
      iteration: last + 1,
      summary: summaryOfRows(rows, files.config),
      base: {
        id: base,
        label: base === 'random' ? 'untrained (random init)' : base,
        untrained: base === 'random',
      },
      backend: files.summary?.backend ?? null,
      hasCheckpoint: false,
    },
    rows,
    events: files.events,
    samples: files.samples ?? [],
    checkpoint: null,
  };
}
