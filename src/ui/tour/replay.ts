// Replaying a recorded run (a run file from public/recorded/, or any stored run) into the
// playground's current-run state, iteration by iteration at a chosen speed, so the charts, the
// banner and the trajectory viewer show it exactly as they would a live run. The pure parts —
// the run cut at an iteration and the tour's stopping points — are tested in replay.test.ts.

import type { RunData } from '../../core/files/runFile.js';
import type { SampledTrajectory, TrainerEvent } from '../../core/rl/trainer.js';
import { useApp } from '../store/index.js';

/** What the tour pauses on: the detector's first warning, the collapse, the last iteration. */
export interface StopPoints {
  /** First `warning` event; else the first `context` event (reward-std drop …); null if none. */
  warning: { iteration: number; signals: string[]; messages: string[] } | null;
  /** The collapse event's iteration, null when the run did not collapse. */
  collapse: number | null;
  /** One past the last recorded iteration. */
  end: number;
}

type Echo = Extract<TrainerEvent, { type: 'echo' }>;

/** The tour's stopping points of a recorded run. */
export function stopPoints(run: Pick<RunData, 'rows' | 'events'>): StopPoints {
  const echo = run.events.filter((e): e is Echo => e.type === 'echo');
  const warnings = echo.filter((e) => e.kind === 'warning');
  const pool = warnings.length > 0 ? warnings : echo.filter((e) => e.kind === 'context');
  const first = pool[0];
  const warning = first
    ? {
        iteration: first.iteration,
        signals: [...new Set(pool.filter((e) => e.iteration === first.iteration).map((e) => e.signal))],
        messages: pool.filter((e) => e.iteration === first.iteration).map((e) => e.message),
      }
    : null;
  const collapse = echo.find((e) => e.kind === 'collapse')?.iteration ?? null;
  return { warning, collapse, end: (run.rows.at(-1)?.iteration ?? -1) + 1 };
}

/** The run as it stood after `upTo` iterations (rows, events and samples of iterations < upTo). */
export function runUpTo(
  run: Pick<RunData, 'rows' | 'events' | 'samples'>,
  upTo: number,
): Pick<RunData, 'rows' | 'events' | 'samples'> {
  return {
    rows: run.rows.filter((r) => r.iteration < upTo),
    events: run.events.filter((e) => e.iteration < upTo),
    samples: run.samples.filter((s) => s.iteration < upTo),
  };
}

/** The sample nearest to `iteration` (the viewer's index), null without samples. */
export function nearestSample(samples: readonly SampledTrajectory[], iteration: number): number | null {
  let best: number | null = null;
  samples.forEach((s, i) => {
    const b = best === null ? undefined : samples[best];
    if (!b || Math.abs(s.iteration - iteration) < Math.abs(b.iteration - iteration)) best = i;
  });
  return best;
}

/** Shows the recorded run cut at `upTo` as the current run (the viewer follows the latest sample). */
export function showRecorded(run: RunData, upTo: number): void {
  const cut = runUpTo(run, upTo);
  useApp.setState({
    runId: `replay:${run.meta.name}`,
    runName: run.meta.name,
    runEnv: run.meta.config.env,
    runStatus: 'finished',
    phase: null,
    iteration: upTo,
    planned: run.meta.config.iterations,
    rows: cut.rows,
    events: cut.events,
    samples: cut.samples,
    summary: null,
    startInfo: null,
    runError: null,
    focusIteration: null,
    openedRun: { id: run.meta.id, config: run.meta.config },
  });
}

/** Plays a recorded run forward from `from` to `to` at `speed` iterations a second (Infinity: at once). */
export class Replayer {
  private timer: ReturnType<typeof setInterval> | null = null;
  position = 0;

  constructor(private readonly run: RunData) {}

  /** Resolves when `to` is reached or the replay is stopped (false when stopped early). */
  play(to: number, speed: number, onTick?: (at: number) => void): Promise<boolean> {
    this.stop();
    const target = Math.min(to, stopPoints(this.run).end);
    if (!Number.isFinite(speed) || this.position >= target) {
      this.position = Math.max(this.position, target);
      showRecorded(this.run, this.position);
      onTick?.(this.position);
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const stepMs = 50;
      let carry = 0;
      this.resolveStop = () => resolve(false);
      this.timer = setInterval(() => {
        carry += (speed * stepMs) / 1000;
        const n = Math.floor(carry);
        if (n < 1) return;
        carry -= n;
        this.position = Math.min(target, this.position + n);
        showRecorded(this.run, this.position);
        onTick?.(this.position);
        if (this.position >= target) {
          this.clear();
          resolve(true);
        }
      }, stepMs);
    });
  }

  private resolveStop: (() => void) | null = null;

  private clear(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.resolveStop = null;
  }

  /** Stops playing where it is. */
  stop(): void {
    const r = this.resolveStop;
    this.clear();
    r?.();
  }

  get playing(): boolean {
    return this.timer !== null;
  }
}
