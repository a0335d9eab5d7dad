// How core sees environments: a pool of slots that reset and step in batches, text
// in and text out. core never imports envs/; any object with reset/step/instruction fits
// (envs/types.ts TextEnv does). In Node and tests the pool runs in-process; in the browser a
// worker pool implements the same interface (one message per shard per turn).
// Common random numbers within a group: RAGEN resets every rollout of a group with the same seed
// (es_manager `_expand_seed`), so a stochastic env (Bandit payouts, FrozenLake slips, moving
// obstacles) replays one random stream for the whole group, and the in-group reward std measures
// how much the rollouts disagree, not how lucky each was. `streamInstance` maps the
// `groupStreams` switch onto each slot's reset `instance`.
import type { ActionOutcome } from '../trajectory.js';

export type { ActionOutcome } from '../trajectory.js';

/** The part of an environment the rollout uses. */
export interface EnvLike {
  /** `instance` varies the env's step randomness, not its start state (see streamInstance). */
  reset(seed: number, instance?: number): string;
  step(action: string): {
    observation: string;
    reward: number;
    done: boolean;
    info: { success: boolean; actionIsValid: boolean; actionIsEffective: boolean };
  };
  instruction(): string;
}

/** The result of one turn's actions in one slot. */
export interface TurnResult {
  observation: string;
  outcomes: ActionOutcome[];
  done: boolean;
  success: boolean;
}

export interface ResetResult {
  observation: string;
  instruction: string;
}

/** How the rollouts of one group draw env randomness (the config's `groupStreams`). */
export type GroupStreams = 'shared' | 'independent';

/**
 * The reset `instance` of rollout `k` (0-based) of a group: 0 for every rollout when the group
 * shares one random stream (RAGEN), k when each draws its own.
 */
export function streamInstance(mode: GroupStreams, k: number): number {
  return mode === 'shared' ? 0 : k;
}

export interface EnvPool {
  /**
   * Resets slot i with seeds[i] and step-randomness instance instances[i] (default 0); the pool
   * grows to seeds.length slots.
   */
  reset(seeds: readonly number[], instances?: readonly number[]): Promise<ResetResult[]>;
  /** Applies each slot's actions in order, stopping at the end of the episode. */
  step(batch: readonly { slot: number; actions: readonly string[] }[]): Promise<TurnResult[]>;
  /** Environment steps taken since the pool was made. */
  readonly stepsTaken: number;
}

/** Applies a turn's actions to one environment; shared by the in-process and worker pools. */
export function applyActions(env: EnvLike, actions: readonly string[], current: string): TurnResult {
  let observation = current;
  let done = false;
  let success = false;
  const outcomes: ActionOutcome[] = [];
  for (const action of actions) {
    const r = env.step(action);
    observation = r.observation;
    outcomes.push({
      action,
      reward: r.reward,
      valid: r.info.actionIsValid,
      effective: r.info.actionIsEffective,
    });
    success ||= r.info.success;
    if (r.done) {
      done = true;
      break;
    }
  }
  return { observation, outcomes, done, success };
}

/** All environments in this thread. */
export class InProcessEnvPool implements EnvPool {
  private readonly envs: EnvLike[] = [];
  private readonly observations: string[] = [];
  stepsTaken = 0;

  constructor(private readonly make: () => EnvLike) {}

  async reset(seeds: readonly number[], instances?: readonly number[]): Promise<ResetResult[]> {
    while (this.envs.length < seeds.length) this.envs.push(this.make());
    return seeds.map((seed, i) => {
      const env = this.envs[i] as EnvLike;
      const observation = env.reset(seed, instances?.[i] ?? 0);
      this.observations[i] = observation;
      return { observation, instruction: env.instruction() };
    });
  }

  async step(batch: readonly { slot: number; actions: readonly string[] }[]): Promise<TurnResult[]> {
    return batch.map(({ slot, actions }) => {
      const env = this.envs[slot];
      if (!env) throw new Error(`env pool: slot ${slot} was never reset`);
      const r = applyActions(env, actions, this.observations[slot] ?? '');
      this.observations[slot] = r.observation;
      this.stepsTaken += r.outcomes.length;
      return r;
    });
  }
}
