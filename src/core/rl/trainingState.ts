// A run's position beside its weights (issue: resumable runs): the counters, the live settings
// and the random streams' positions as plain data, and Adam's moments — what a checkpoint must
// carry for a resumed run to write the rows the uninterrupted run would have written. Reading it
// back from a file checks it field by field; capture and restore go through the trainer's parts.
import { type Config, FIELDS, formatErrors, validateConfig } from '../config.js';
import type { Adam, AdamState } from '../model/adam.js';
import type { Model } from '../model/params.js';
import { Rng, type RngState } from '../rng.js';
import type { CriticHost } from './criticHost.js';

/** Fields that may change mid-run (marked `live` in the field table). */
export const LIVE_FIELDS: ReadonlySet<string> = new Set(FIELDS.filter((f) => f.live).map((f) => f.key));

/**
 * Where a run is, beyond its weights: what a checkpoint must carry for a resumed run to write the
 * rows the uninterrupted run would have written (counters, live settings, random streams, Adam).
 */
export interface TrainingState {
  /** Plain data (JSON): the counters, the live settings and the random streams' positions. */
  position: TrainerPosition;
  optimizers: { policy: AdamState; critic?: AdamState };
}

export interface TrainerPosition {
  iteration: number;
  policyUpdates: number;
  consecutiveErrors: number;
  unconfirmedUpdate: boolean;
  /** The live settings as they stand (a run's live changes persist across a resume). */
  live: Record<string, unknown>;
  rng: Record<StreamName, RngState>;
}

/** The trainer's random streams, by the name a checkpoint stores them under. */
export type StreamName = 'sampling' | 'minibatches' | 'filter' | 'baseReasoning';
export const STREAMS: readonly StreamName[] = ['sampling', 'minibatches', 'filter', 'baseReasoning'];

/** A position read from a checkpoint file, checked field by field (a message names the first bad one). */
export function parseTrainerPosition(raw: unknown): TrainerPosition {
  const p = raw as Partial<TrainerPosition> | null;
  const count = (k: 'iteration' | 'policyUpdates' | 'consecutiveErrors') => {
    const v = p?.[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new Error(
        `checkpoint: training position ${k} must be a whole number ≥ 0, got ${JSON.stringify(v)}`,
      );
  };
  if (!p || typeof p !== 'object') throw new Error('checkpoint: training position is not an object');
  count('iteration');
  count('policyUpdates');
  count('consecutiveErrors');
  if (typeof p.unconfirmedUpdate !== 'boolean')
    throw new Error('checkpoint: training position unconfirmedUpdate must be true or false');
  if (!p.live || typeof p.live !== 'object') throw new Error('checkpoint: training position live is missing');
  const bad = Object.keys(p.live).filter((k) => !LIVE_FIELDS.has(k));
  if (bad.length > 0)
    throw new Error(`checkpoint: training position live has ${bad.join(', ')}, not live settings`);
  for (const name of STREAMS) {
    const st = p.rng?.[name];
    if (!st || !Array.isArray(st.s)) throw new Error(`checkpoint: training position rng.${name} is missing`);
    new Rng(0).restore(st); // throws, naming what is wrong
  }
  return p as TrainerPosition;
}

/** The counters a position carries. */
export type TrainerCounters = Pick<
  TrainerPosition,
  'iteration' | 'policyUpdates' | 'consecutiveErrors' | 'unconfirmedUpdate'
>;

/** What of a trainer its training state saves and restores besides the counters. */
export interface TrainerParts {
  policy: Model;
  critic: CriticHost | null;
  policyOpt: Adam;
  streams: Readonly<Record<StreamName, Rng>>;
}

/** The training state of a trainer at `counters` running `config`. */
export async function captureTrainingState(
  parts: TrainerParts,
  counters: TrainerCounters,
  config: Config,
): Promise<TrainingState> {
  const live = Object.fromEntries(
    [...LIVE_FIELDS].map((k) => [k, (config as unknown as Record<string, unknown>)[k]]),
  );
  return {
    position: {
      iteration: counters.iteration,
      policyUpdates: counters.policyUpdates,
      consecutiveErrors: counters.consecutiveErrors,
      unconfirmedUpdate: counters.unconfirmedUpdate,
      live,
      rng: Object.fromEntries(STREAMS.map((n) => [n, parts.streams[n].state()])) as Record<
        StreamName,
        RngState
      >,
    },
    optimizers: {
      policy: await parts.policyOpt.state(parts.policy),
      ...(parts.critic ? { critic: await parts.critic.readAdam() } : {}),
    },
  };
}

/**
 * Puts `training` back into `parts` (Adam's moments, the random streams) for a resume at
 * `iteration`, and returns `config` with the saved live settings and the saved counters. Throws,
 * saying why, when the state is at another iteration or lacks the critic's optimizer.
 */
export function restoreTrainingState(
  parts: TrainerParts,
  training: TrainingState,
  iteration: number,
  config: Config,
): { config: Config; counters: TrainerCounters } {
  const p = training.position;
  if (p.iteration !== iteration)
    throw new Error(
      `resume: the training state is at iteration ${p.iteration}, the checkpoint at ${iteration}`,
    );
  const r = validateConfig({ ...config, ...p.live });
  if (!r.ok) throw new Error(`resume: ${formatErrors(r.errors)}`);
  parts.policyOpt.restore(parts.policy, training.optimizers.policy);
  if (parts.critic) {
    if (!training.optimizers.critic) throw new Error('resume: the training state has no critic optimizer');
    parts.critic.writeAdam(training.optimizers.critic);
  }
  for (const name of STREAMS) parts.streams[name].restore(p.rng[name]);
  const { policyUpdates, consecutiveErrors, unconfirmedUpdate } = p;
  return { config: r.config, counters: { iteration, policyUpdates, consecutiveErrors, unconfirmedUpdate } };
}
