// What each run status lets a person do and what the transport bar says in it, as one table: the
// bar's buttons, counter and phase line read a row instead of comparing the status's name with
// strings. A button is also off while the page is busy, and Start and Step while the setup blocks
// them (TransportBar.tsx adds those).
import { STOP_GRACE_MS } from '../../workers/client.js';
import type { RunStatus } from './types.js';

export interface RunStatusSpec {
  /** A run is under way (its settings are fixed, the backend cannot change). */
  active: boolean;
  /** Start (or Resume, when `resumes`) can be pressed. */
  canStart: boolean;
  /** Start continues this run instead of starting a new one; its button then says "Resume". */
  resumes: boolean;
  canPause: boolean;
  /** One iteration, then pause. */
  canStep: boolean;
  canStop: boolean;
  /** Clears the run from the view. */
  canReset: boolean;
  /** Start's tooltip. */
  startTitle: string;
  /** Iterations are being run now: the bar shows the time left, Pause takes the focus, and a
   *  pending "Pausing…" clears once the status leaves this row. */
  training: boolean;
  /** No run yet: the counter counts toward the setup's iterations, not a run's. */
  countsSetup: boolean;
  /** What the phase line says in this status in place of the worker's phase (given the run's
   *  error), and the phase's name for the page's style and tests; null: the worker's phase. */
  phaseLine: { name: string | null; text: (runError: string | null) => string } | null;
}

/** The fields every status but those named below shares. */
const QUIET = { training: false, countsSetup: false, phaseLine: null } as const;

const NEW_RUN = 'Start a new run with this setup';

export const RUN_STATUS: Readonly<Record<RunStatus, RunStatusSpec>> = {
  idle: {
    active: false,
    canStart: true,
    resumes: false,
    canPause: false,
    canStep: true,
    canStop: false,
    canReset: false,
    startTitle: NEW_RUN,
    ...QUIET,
    countsSetup: true,
  },
  starting: {
    active: true,
    canStart: false,
    resumes: false,
    canPause: false,
    canStep: false,
    canStop: true,
    canReset: true,
    startTitle: NEW_RUN,
    ...QUIET,
  },
  running: {
    active: true,
    canStart: false,
    resumes: false,
    canPause: true,
    canStep: false,
    canStop: true,
    canReset: true,
    startTitle: NEW_RUN,
    ...QUIET,
    training: true,
  },
  paused: {
    active: true,
    canStart: true,
    resumes: true,
    canPause: false,
    canStep: true,
    canStop: true,
    canReset: true,
    startTitle: 'Continue training',
    ...QUIET,
  },
  stopping: {
    active: true,
    canStart: false,
    resumes: false,
    canPause: false,
    canStep: false,
    canStop: false,
    canReset: true,
    startTitle: NEW_RUN,
    ...QUIET,
    phaseLine: {
      name: null,
      text: () => `Stopping after this iteration (at most ${STOP_GRACE_MS / 1000} s)…`,
    },
  },
  finished: {
    active: false,
    canStart: true,
    resumes: false,
    canPause: false,
    canStep: true,
    canStop: false,
    canReset: true,
    startTitle: NEW_RUN,
    ...QUIET,
  },
  failed: {
    active: false,
    canStart: true,
    resumes: false,
    canPause: false,
    canStep: true,
    canStop: false,
    canReset: true,
    startTitle:
      'Start a new run with this setup (a failed run is not resumed where it failed: its saved rows and last checkpoint stay in the run list, and the checkpoint can be chosen as the base model)',
    ...QUIET,
    phaseLine: { name: 'failed', text: (runError) => `Failed: ${runError ?? 'unknown error'}` },
  },
};
