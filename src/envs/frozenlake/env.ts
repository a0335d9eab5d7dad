// FrozenLake as a text environment (envs/types.ts): RAGEN's FrozenLake on gymnasium's rules.
//
// ## Description
// The player crosses a frozen lake from the start to the goal without falling into a hole. The
// ice is slippery: a move goes the intended way with probability p (1/3 by default, the paper's
// and gymnasium's setting) and to each side (the two perpendicular directions) with (1 − p)/2.
// Maps are 4 × 4, about 80% frozen, with random start and goal, always joined by a safe path.
//
// ## Observation (frozenlake/FrozenLake-4x4, seed 1)
// The grid, one row per line, cells separated by spaces, then RAGEN's symbol legend:
//   _ O _ O
//   O _ P _
//   _ _ _ _
//   O _ O G
//   P: player, _: empty, O: hole, G: goal, X: player in hole, √: player on goal
// After text that is not an action, a first line says "Your previous action was not understood.
// Valid actions: Left, Down, Right, Up."
//
// ## Actions
// Left, Down, Right, Up (case-insensitive), RAGEN's order. A move into the border stays put.
//
// ## Rewards
// 1 on reaching the goal, 0 otherwise (a hole ends the episode with 0).
//
// ## Termination
// The goal or a hole is entered, or maxSteps actions pass (default 10, RAGEN's
// max_actions_per_traj; unreadable text counts as an action too).
//
// Randomness: the map from Rng(seed); slips from Rng(seed).fork('step') (and `stepSalt`), so the
// same seed and actions give the same trajectory.
import { Rng } from '../../core/rng.js';
import { actionText, guardStep, invalidStep, notUnderstoodLine } from '../common.js';
import type { StepResult, TextEnv } from '../types.js';
import { lakeExpert, outcomes } from './expert.js';
import { GOAL, generateMap, HOLE, LAKE_ACTIONS, type LakeMap, moveFrom } from './map.js';

/** RAGEN's legend (FrozenLakeEnvConfig.grid_vocab). */
export const LAKE_LEGEND = 'P: player, _: empty, O: hole, G: goal, X: player in hole, √: player on goal';

/** How a FrozenLake instance is set up. */
export interface FrozenLakeOptions {
  id?: string;
  /** Side of the square map (default 4). */
  size?: number;
  /** Probability of a frozen cell (default 0.8). */
  pFrozen?: number;
  /** Probability that a move goes the intended way (default 1/3; 1 = not slippery). */
  pIntended?: number;
  /** Actions per episode (default 10). */
  maxSteps?: number;
  /**
   * Mixed into the slip stream (default 0). Instances given different salts slip differently on
   * the same seed, as RAGEN's per-instance seed offset does for rollouts of one group.
   */
  stepSalt?: number;
}

/** Plain JSON for a UI to draw a FrozenLake state. */
export interface FrozenLakeView {
  kind: 'frozenlake';
  id: string;
  size: number;
  /** Symbols row by row, as the agent reads them. */
  grid: string[][];
  legend: string;
  player: { row: number; col: number };
  start: { row: number; col: number };
  goal: { row: number; col: number };
  holes: { row: number; col: number }[];
  /** Probability that a move goes the intended way. */
  pIntended: number;
  steps: number;
  maxSteps: number;
  done: boolean;
  success: boolean;
  /** The action asked for, and the direction the player actually slid (null before any move). */
  lastAction: string | null;
  lastMove: string | null;
  lastReward: number;
}

/** The action index of `text` (case- and space-insensitive), or -1. */
export function parseLakeAction(text: string): number {
  const t = text.trim().toLowerCase();
  return LAKE_ACTIONS.findIndex((a) => a.toLowerCase() === t);
}

/** One FrozenLake environment instance. */
export class FrozenLakeEnv implements TextEnv<FrozenLakeView> {
  readonly id: string;
  readonly size: number;
  readonly pFrozen: number;
  readonly pIntended: number;
  readonly maxSteps: number;
  readonly stepSalt: number;
  /** The current map; read it, do not mutate it from outside. */
  map: LakeMap = { size: 0, tiles: new Uint8Array(0), start: 0, goal: 0 };
  /** The player's cell. */
  player = 0;
  private stepRng = new Rng(0);
  private steps = 0;
  private finished = false;
  private success = false;
  private started = false;
  private lastAction: string | null = null;
  private lastMove: string | null = null;
  private lastReward = 0;
  private lastObservation = '';

  constructor(options: FrozenLakeOptions = {}) {
    this.size = options.size ?? 4;
    this.pFrozen = options.pFrozen ?? 0.8;
    this.pIntended = options.pIntended ?? 1 / 3;
    this.maxSteps = options.maxSteps ?? 10;
    this.stepSalt = options.stepSalt ?? 0;
    if (!(this.pIntended > 0 && this.pIntended <= 1))
      throw new Error('FrozenLake: pIntended must be in (0, 1]');
    this.id = options.id ?? `frozenlake/FrozenLake-${this.size}x${this.size}`;
  }

  /** Draws the map of `seed` and observes it. */
  reset(seed: number, instance = 0): string {
    const rng = new Rng(seed);
    const salt = this.stepSalt + instance;
    return this.load(generateMap(rng, this.size, this.pFrozen), rng.fork(salt ? `step-${salt}` : 'step'));
  }

  /** Starts an episode on a given map (hand-made maps in tests and the UI). */
  load(map: LakeMap, stepRng: Rng = new Rng(0).fork('step')): string {
    this.map = { ...map, tiles: map.tiles.slice() };
    this.player = map.start;
    this.stepRng = stepRng;
    this.steps = 0;
    this.finished = false;
    this.success = false;
    this.started = true;
    this.lastAction = null;
    this.lastMove = null;
    this.lastReward = 0;
    this.lastObservation = this.observe();
    return this.lastObservation;
  }

  /** Applies one action; after the episode has ended it returns done with no change. */
  step(action: string): StepResult {
    const ended = guardStep(this.id, this.started, this.finished, this.lastObservation);
    if (ended) return ended;
    this.steps++;
    const a = parseLakeAction(actionText(action));
    if (a < 0) {
      this.finished = this.steps >= this.maxSteps;
      this.lastAction = null;
      this.lastMove = null;
      this.lastReward = 0;
      this.lastObservation = `${notUnderstoodLine(LAKE_ACTIONS)}\n${this.observe()}`;
      return invalidStep(this.lastObservation, this.finished);
    }
    const dir = this.slide(a);
    const from = this.player;
    this.player = moveFrom(this.size, from, dir);
    const tile = this.map.tiles[this.player];
    this.success = tile === GOAL;
    const reward = this.success ? 1 : 0;
    this.finished = this.success || tile === HOLE || this.steps >= this.maxSteps;
    this.lastAction = LAKE_ACTIONS[a] as string;
    this.lastMove = LAKE_ACTIONS[dir] as string;
    this.lastReward = reward;
    this.lastObservation = this.observe();
    return {
      observation: this.lastObservation,
      reward,
      done: this.finished,
      info: { success: this.success, actionIsValid: true, actionIsEffective: this.player !== from },
    };
  }

  /** RAGEN's FrozenLake instruction (the slip sentence only on slippery ice). */
  instruction(): string {
    const slip =
      this.pIntended < 1 ? ' You may move in an unintended direction due to the slippery ice.' : '';
    return `You are solving the FrozenLake puzzle. Avoid the holes and go to the goal.${slip} Your available actions are: ${LAKE_ACTIONS.join(', ')}.`;
  }

  /** Left, Down, Right, Up. */
  validActions(): string[] {
    return [...LAKE_ACTIONS];
  }

  /** Whether the episode has ended. */
  isDone(): boolean {
    return this.finished;
  }

  /** The scripted expert: the action with the best chance of reaching the goal in the moves left. */
  expert(): { action: string; reason: string } {
    if (!this.started) throw new Error(`${this.id}: call reset(seed) before expert()`);
    return lakeExpert(this.map, this.player, Math.max(this.maxSteps - this.steps, 1), this.pIntended);
  }

  /** Plain JSON for viewers. */
  view(): FrozenLakeView {
    const at = (i: number) => ({ row: Math.floor(i / this.size), col: i % this.size });
    const holes: { row: number; col: number }[] = [];
    this.map.tiles.forEach((t, i) => {
      if (t === HOLE) holes.push(at(i));
    });
    return {
      kind: 'frozenlake',
      id: this.id,
      size: this.size,
      grid: this.symbolRows(),
      legend: LAKE_LEGEND,
      player: at(this.player),
      start: at(this.map.start),
      goal: at(this.map.goal),
      holes,
      pIntended: this.pIntended,
      steps: this.steps,
      maxSteps: this.maxSteps,
      done: this.finished,
      success: this.success,
      lastAction: this.lastAction,
      lastMove: this.lastMove,
      lastReward: this.lastReward,
    };
  }

  /** The direction the player actually moves when asking for `a`. */
  private slide(a: number): number {
    const options = outcomes(a, this.pIntended);
    if (options.length === 1) return a;
    return (options[this.stepRng.weighted(options.map(([, p]) => p))] as [number, number])[0];
  }

  private symbolRows(): string[][] {
    const rows: string[][] = [];
    for (let r = 0; r < this.size; r++) {
      const row: string[] = [];
      for (let c = 0; c < this.size; c++) {
        const i = r * this.size + c;
        const t = this.map.tiles[i];
        if (i === this.player) row.push(t === HOLE ? 'X' : t === GOAL ? '√' : 'P');
        else row.push(t === HOLE ? 'O' : t === GOAL ? 'G' : '_');
      }
      rows.push(row);
    }
    return rows;
  }

  private observe(): string {
    return `${this.symbolRows()
      .map((row) => row.join(' '))
      .join('\n')}\n${LAKE_LEGEND}`;
  }
}
