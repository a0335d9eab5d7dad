// How many workers a run's iteration uses (issue 40): one (the serial schedule), or two (the
// critic in its own worker, beside the policy). Chosen from the machine: two only when the
// algorithm has a critic, the backend runs on the CPU (WASM or tfjs's CPU kernels: on WebGPU both
// models share one device), and every lane running on the machine can have two — lanes × workers
// ≤ cores — so runs side by side (seeds side by side, a sweep's jobs) never oversubscribe it.

import type { Config } from '../config.js';
import type { CriticHostFactory } from './criticHost.js';

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
}

const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

/** The schedule of a run on this machine. */
export function chooseSchedule(s: ScheduleInput): Schedule {
  const one = (why: string): Schedule => ({ workers: 1, reason: `1 worker: ${why}` });
  if (!s.critic) return one('the algorithm has no critic to move');
  if (s.backend === 'webgpu') return one('on WebGPU the critic shares the GPU with the policy');
  if (s.choice === '1') return one('asked for');
  const fit = `${runs(s.lanes)} × 2 ${s.lanes * 2 <= s.cores ? '≤' : '>'} ${s.cores} cores`;
  if (s.choice === '2')
    return { workers: 2, reason: `2 workers (asked for): the critic beside the policy (${fit})` };
  if (s.lanes * 2 > s.cores) return one(`two each would oversubscribe the machine (${fit})`);
  return { workers: 2, reason: `2 workers: the critic beside the policy (${fit})` };
}

/** The schedule of a run of `config` on `backend` beside `lanes − 1` others, and where its critic runs. */
export type ScheduleFor = (
  config: Config,
  backend: string,
  lanes: number,
) => { schedule?: Schedule; criticHost?: CriticHostFactory };
