// The contract every text environment meets: text in, text out, seeded.
// core/ never imports this file; it sees environments through its own pool interface, which
// these types satisfy structurally.

/**
 * Longest action text an environment reads, in characters: a longer one is an invalid action,
 * refused before any parsing or search (the agent writes ≤ 256 tokens; people can paste more).
 */
export const MAX_ACTION_CHARS = 1000;

/** What `step` reports beside the reward. */
export interface StepInfo {
  /** The episode reached its goal (MiniGrid: the goal reward; WebShop: reward = 1). */
  success: boolean;
  /** The action text was understood and allowed here. */
  actionIsValid: boolean;
  /** The environment's state changed. */
  actionIsEffective: boolean;
}

export interface StepResult {
  /** The agent-facing observation after the action. */
  observation: string;
  reward: number;
  /** Terminated or truncated. */
  done: boolean;
  info: StepInfo;
}

/** One environment instance. Same seed ⇒ same text trajectory for the same actions. */
export interface TextEnv<View = unknown> {
  readonly id: string;
  /**
   * Starts an episode from `seed` (an unsigned 32-bit integer) and returns the first observation.
   * `instance` (default 0) varies only the randomness of later steps (slips, payouts, moving
   * obstacles): the trainer resets all N rollouts of a group with instance 0, so they share their
   * start state and their luck (RAGEN's one seed per group), or with 0..N−1 when the config's
   * `groupStreams` is 'independent'.
   */
  reset(seed: number, instance?: number): string;
  /** Applies one action in text form. Unknown text is an invalid action, never an exception. */
  step(action: string): StepResult;
  /** The task statement (MiniGrid mission, WebShop instruction) of the current episode. */
  instruction(): string;
  /** The actions valid now, where the env has a finite list; null otherwise. */
  validActions(): string[] | null;
  /** Structured state for the UI viewers (plain JSON data). */
  view(): View;
}

/** A registered environment id and how to make it. */
export interface EnvSpec {
  /** Stable id, e.g. `minigrid/DoorKey-5x5`, `webshop/lite`. */
  id: string;
  /** Family name used to group ids in menus and benchmarks. */
  family: string;
  /** One line for menus. */
  summary: string;
  /** Whether transitions are random given the action (e.g. moving obstacles). */
  stochastic: boolean;
  /** Upper bound on env steps in one episode (maxSteps or action budget). */
  maxSteps: number;
  make(): TextEnv;
  /**
   * The id to evaluate on, when held-out start states need a different id (WebShop's eval goal
   * split); otherwise evaluation uses this id with seeds outside the training range.
   */
  heldOutId?: string;
  /**
   * The scripted expert: the next action for an env made by `make` (after reset) and a one-line
   * reason. Source of base-model demonstrations and a reference line on the charts.
   */
  expert?(env: TextEnv): { action: string; reason: string };
}
