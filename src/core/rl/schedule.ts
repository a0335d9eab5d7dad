// How many workers a run's iteration uses (issue 40): one (the serial schedule), or two — the
// critic in its own worker beside the policy, or, for an algorithm without a critic, a copy of the
// frozen reference scoring a share of its length groups, and the periodic measurements, beside
// the policy's thread. Chosen from the machine: two only when the run updates (a frozen control
// scores nothing), the backend runs on the CPU (WASM or tfjs's CPU kernels: on WebGPU the models
// share one device), and every lane running on the machine can have two — lanes × workers ≤
// cores — so runs side by side (seeds side by side, a sweep's jobs) never oversubscribe it.

import type { Config } from '../config.js';
import { usesCritic } from './algorithms.js';
import type { CriticHostFactory } from './criticHost.js';
import { isFrozenControl } from './frozenControl.js';
import type { ReferenceHostFactory } from './referenceHost.js';

/** The user's choice: the machine's, or one of the two schedules by hand. */
export const WORKER_CHOICES = ['auto', '1', '2'] as const;
export type WorkerChoice = (typeof WORKER_CHOICES)[number];

export interface Schedule {
  workers: 1 | 2;
  /** One line for the status line and the command line, e.g. "2 workers: the critic beside the policy (1 run × 2 ≤ 2 cores)". */
  reason: string;
}

export interface ScheduleInput {
  choice: WorkerChoice;
  /** Logical cores of the machine. */
  cores: number;
  /** Runs sharing the machine, this one included. */
  lanes: number;
  backend: string;
  critic: boolean;
  /** The run updates its policy (a frozen control, lr 0, scores and steps nothing). */
  learns: boolean;
}

/** A run's second worker: its critic's host, or for a run without a critic the reference's copy. */
export interface SecondWorker {
  criticHost: CriticHostFactory;
  referenceHost: ReferenceHostFactory;
}

const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

/** The schedule of a run on this machine. */
export function chooseSchedule(s: ScheduleInput): Schedule {
  const one = (why: string): Schedule => ({ workers: 1, reason: `1 worker: ${why}` });
  if (!s.learns) return one('a frozen control has no update to share');
  if (s.backend === 'webgpu') return one('on WebGPU the models share one GPU');
  if (s.choice === '1') return one('asked for');
  const what = s.critic
    ? 'the critic beside the policy'
    : 'half of each turn’s sampling, half the reference scoring and the measurements beside the policy';
  const fit = `${runs(s.lanes)} × 2 ${s.lanes * 2 <= s.cores ? '≤' : '>'} ${s.cores} cores`;
  if (s.choice === '2') return { workers: 2, reason: `2 workers (asked for): ${what} (${fit})` };
  if (s.lanes * 2 > s.cores) return one(`two each would oversubscribe the machine (${fit})`);
  return { workers: 2, reason: `2 workers: ${what} (${fit})` };
}

/** The schedule of a run of `config` on a machine: what it has to share read from the config. */
export function scheduleOf(config: Config, machine: Omit<ScheduleInput, 'critic' | 'learns'>): Schedule {
  return chooseSchedule({ ...machine, critic: usesCritic(config), learns: !isFrozenControl(config) });
}

/** The schedule of a run of `config` on `backend` beside `lanes − 1` others, and its second worker if any. */
export type ScheduleFor = (
  config: Config,
  backend: string,
  lanes: number,
) => { schedule?: Schedule; second?: SecondWorker };
