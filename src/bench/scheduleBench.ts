// The two schedules of an iteration in one run (issue 40): each preset as a user runs it, first
// serial (all in this thread), then with a second worker thread (workers/node/nodeCritic.ts): the
// critic beside the policy, or without a critic a copy of the reference scoring a share of its
// groups, same seed and backend, so the numbers are the
// same and only the time differs. The speed-up is serial ÷ two-worker seconds per iteration.
import { resolveConfig } from '../core/resolve.js';
import type { BackendName } from '../workers/backend.js';
import { nodeSecondWorker } from '../workers/node/nodeCritic.js';
import { benchPreset, type PresetBench } from './presetBench.js';

export interface ScheduleRow {
  preset: string;
  serial: PresetBench;
  twoWorkers: PresetBench;
  speedup: number;
}

/**
 * Iterations a schedule is timed over: a warm-up, then 10, of which the 10th measures (held-out
 * evaluation and MI every 10 iterations, as the presets plan them, and not at the last one: each
 * run is planned at its preset's own length), so measurements weigh as much as in a real run.
 */
export const SCHEDULE_ITERATIONS = 11;

/** Each of `presets` for `iterations` iterations (the first a warm-up) on both schedules. */
export async function benchSchedule(
  presets: readonly string[],
  backend: BackendName,
  iterations: number,
  log: (line: string) => void,
): Promise<{ presets: ScheduleRow[] }> {
  const rows: ScheduleRow[] = [];
  for (const preset of presets) {
    log(`bench: ${preset} preset, ${iterations} iterations, serial schedule on ${backend}`);
    // Planned at the preset's own length, so that no timed iteration is the run's last (which evaluates).
    const planned = { iterations: resolveConfig({ preset }).values.iterations };
    const serial = await benchPreset(preset, backend, iterations, planned);
    log(
      `bench: ${preset} preset, ${iterations} iterations, two workers (the critic, or a share of the reference scoring, in the second)`,
    );
    const twoWorkers = await benchPreset(
      preset,
      backend,
      iterations,
      planned,
      nodeSecondWorker(backend === 'cpu' ? 'cpu' : 'wasm'),
    );
    const speedup = Number((serial.secondsPerIteration / twoWorkers.secondsPerIteration).toFixed(2));
    rows.push({ preset, serial, twoWorkers, speedup });
  }
  return { presets: rows };
}

/** One line a preset: seconds per iteration and the update's share on each schedule. */
export function formatSchedule(s: { presets: ScheduleRow[] }): string {
  const part = (p: PresetBench) =>
    `${p.secondsPerIteration.toFixed(2)} s (rollout ${(p.split.rolloutMs / 1000).toFixed(2)}, scoring ${(p.split.scoringMs / 1000).toFixed(2)}, update ${(p.split.updateMs / 1000).toFixed(2)}: policy steps ${((p.split.policyMs ?? 0) / 1000).toFixed(2)}, critic steps ${((p.split.criticMs ?? 0) / 1000).toFixed(2)}, waited for the critic ${((p.split.criticWaitMs ?? 0) / 1000).toFixed(2)})`;
  return s.presets
    .map((r) => `${r.preset}: serial ${part(r.serial)}; two workers ${part(r.twoWorkers)}: ${r.speedup}×`)
    .join('\n');
}
