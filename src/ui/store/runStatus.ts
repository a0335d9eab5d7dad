// What each run status lets a person do, as one table: the transport bar's buttons read a row
// instead of comparing the status's name with strings. A button is also off while the page is
// busy, and Start and Step while the setup blocks them (TransportBar.tsx adds those).
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
}

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
  },
};
