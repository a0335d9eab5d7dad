// What a MiniGrid family file provides (one file per family, as MiniGrid has one per env):
// its registered variants, allowed actions, max-step formula, seeded generation, the family's
// own step rules, and its scripted expert over the true state.
import type { Rng } from '../../core/rng.js';
import type { StepOutcome, World } from './world.js';

/** The expert's choice: a MiniGrid action index and a one-line reason. */
export interface ExpertStep {
  action: number;
  reason: string;
}

/** One generated episode: the family's rules bound to that episode's state. */
export interface Task {
  /**
   * Runs before the core step (e.g. moving obstacles) and returns the action index the core
   * step applies (Memory turns pickup into toggle).
   */
  beforeStep?(action: number): number;
  /** Applies the family's rewards and termination after the core step (mutates `out`). */
  afterStep?(action: number, out: StepOutcome): void;
  /** The scripted expert's next action over the true state. */
  expert(): ExpertStep;
  /** Family data for viewers (targets, success cells), plain JSON. */
  extra?(): Record<string, unknown>;
}

/** A registered configuration, e.g. DoorKey's "DoorKey-5x5" with `{ size: 5 }`. */
export interface Variant<P> {
  /** The id after `minigrid/`, as upstream's id without `MiniGrid-` and `-v0`. */
  name: string;
  params: P;
}

/** A MiniGrid environment family. */
export interface Family<P> {
  name: string;
  /** One line for menus. */
  summary: string;
  /** MiniGrid action indices the agent may use (others are invalid actions). */
  actions: readonly number[];
  /** Transitions are random given the action. */
  stochastic: boolean;
  variants: readonly Variant<P>[];
  /** Upstream's max_steps formula. */
  maxSteps(params: P): number;
  /**
   * Builds a fresh episode into `world` (grid, agent pose, mission, maxSteps, seeThroughWalls)
   * drawing only from `rng`; the returned task may keep `rng` for later randomness. May throw
   * PlacementError, in which case the env retries with another stream.
   */
  generate(world: World, rng: Rng, params: P, stepRng?: Rng): Task;
}

/** The six actions BALROG offers (no done). */
export const STANDARD_ACTIONS: readonly number[] = [0, 1, 2, 3, 4, 5];
