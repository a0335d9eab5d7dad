// Sokoban as a text environment (envs/types.ts): RAGEN's SimpleSokoban and LargerSokoban on
// gym_sokoban's rules and rewards, levels from reverse play (generate.ts).
//
// ## Description
// The player pushes every box onto a target. Boxes can be pushed (walking into a box moves it one
// cell when the cell beyond is free) but never pulled. Levels are gym_sokoban rooms made by
// reverse play, so each is solvable; by default only levels whose shortest solution fits in the
// action budget are kept (RAGEN's later `min_solution_steps` filter set to [1, maxSteps]), so
// the scripted expert solves every episode.
//
// ## Observation (sokoban/Sokoban-6x6, seed 0)
// The grid, one row per line, cells separated by spaces, then RAGEN's symbol legend:
//   # # # # # #
//   # # # # # #
//   # _ # P _ #
//   # _ O X _ #
//   # _ _ _ _ #
//   # # # # # #
//   #: wall, _: empty, O: target, √: box on target, X: box, P: player, S: player on target
// After text that is not an action, a first line says "Your previous action was not understood.
// Valid actions: Up, Down, Left, Right."
//
// ## Actions
// Up, Down, Left, Right (case-insensitive). The rollout splits "Up || Left" into single actions.
//
// ## Rewards (gym_sokoban)
// −0.1 per action; +1 when a box is pushed onto a target; −1 when pushed off one; +10 when the
// last box reaches a target. Text that is not an action: 0.
//
// ## Termination
// Every box on a target (success), or maxSteps actions (default 10, RAGEN's
// max_actions_per_traj; unreadable text counts as an action too).
import { Rng } from '../../core/rng.js';
import { actionText, guardStep, invalidStep, notUnderstoodLine } from '../common.js';
import type { StepResult, TextEnv } from '../types.js';
import { SokobanPlanner } from './expert.js';
import { GenerationError, generateLevel } from './generate.js';
import {
  applyMove,
  boxesOnTarget,
  cloneLevel,
  DIRECTIONS,
  type Level,
  legend,
  PAPER_SYMBOLS,
  renderGrid,
  type SymbolTable,
  symbolRows,
  TARGET,
} from './level.js';
import { isSolved, solve } from './solver.js';

/** gym_sokoban's reward constants. */
export const STEP_PENALTY = -0.1;
export const BOX_ON_TARGET_REWARD = 1;
export const BOX_OFF_TARGET_PENALTY = -1;
export const FINISHED_REWARD = 10;

/** RAGEN's instruction for every Sokoban variant, without the answer-format example. */
export const SOKOBAN_INSTRUCTION =
  'You are solving the Sokoban puzzle. You are the player and you need to push all boxes to targets. ' +
  'When you are right next to a box, you can push it by moving in the same direction. ' +
  'You cannot push a box through a wall, and you cannot pull a box. ' +
  'Your available actions are: Up, Down, Left, Right.';

const GENERATION_ATTEMPTS = 1000;

/** How a Sokoban instance is set up. */
export interface SokobanOptions {
  id?: string;
  /** Room size (default 6 × 6). */
  rows?: number;
  cols?: number;
  /** Boxes and targets (default 1). */
  boxes?: number;
  /** Reverse-play depth (default 300, RAGEN's SokobanEnvConfig; LargerSokoban uses 10). */
  searchDepth?: number;
  /** Topology walk steps (default int(1.7 · (rows + cols)), gym_sokoban's num_gen_steps). */
  genSteps?: number;
  /** Actions per episode (default 10). */
  maxSteps?: number;
  /**
   * Keep only levels whose shortest solution has at most this many moves (default maxSteps);
   * null keeps every generated level, as RAGEN's paper runs did.
   */
  solutionLimit?: number | null;
  /** Grid symbols (default the paper's). */
  symbols?: SymbolTable;
}

/** Plain JSON for a UI to draw a Sokoban state. */
export interface SokobanView {
  kind: 'sokoban';
  id: string;
  rows: number;
  cols: number;
  /** Symbols row by row, as the agent reads them. */
  grid: string[][];
  legend: string;
  player: { row: number; col: number };
  boxes: { row: number; col: number }[];
  targets: { row: number; col: number }[];
  walls: { row: number; col: number }[];
  boxesOnTarget: number;
  numBoxes: number;
  /** Moves in the shortest solution of the episode's first state. */
  optimalSteps: number;
  steps: number;
  maxSteps: number;
  done: boolean;
  success: boolean;
  lastAction: string | null;
  lastReward: number;
}

/** The direction index of `text` (case- and space-insensitive), or -1. */
export function parseDirection(text: string): number {
  const t = text.trim().toLowerCase();
  return DIRECTIONS.findIndex((d) => d.toLowerCase() === t);
}

function cellOf(level: Level, i: number): { row: number; col: number } {
  return { row: Math.floor(i / level.cols), col: i % level.cols };
}

/** One Sokoban environment instance. */
export class SokobanEnv implements TextEnv<SokobanView> {
  readonly id: string;
  readonly rows: number;
  readonly cols: number;
  readonly numBoxes: number;
  readonly searchDepth: number;
  readonly genSteps: number;
  readonly maxSteps: number;
  readonly solutionLimit: number | null;
  readonly symbols: SymbolTable;
  /** The current state; read it, do not mutate it from outside. */
  level: Level = { rows: 0, cols: 0, fixed: new Uint8Array(0), boxes: [], player: 0 };
  /** Shortest solution length of the episode's first state. */
  optimalSteps = 0;
  /** Upper bound on the shortest solution known from generation (reverse moves + walk). */
  solutionBound = 0;
  private steps = 0;
  private finished = false;
  private success = false;
  private started = false;
  private lastAction: string | null = null;
  private lastReward = 0;
  private lastObservation = '';
  private readonly legendLine: string;
  private readonly planner = new SokobanPlanner();

  constructor(options: SokobanOptions = {}) {
    this.rows = options.rows ?? 6;
    this.cols = options.cols ?? 6;
    this.numBoxes = options.boxes ?? 1;
    this.searchDepth = options.searchDepth ?? 300;
    this.genSteps = options.genSteps ?? Math.trunc(1.7 * (this.rows + this.cols));
    this.maxSteps = options.maxSteps ?? 10;
    this.solutionLimit = options.solutionLimit === undefined ? this.maxSteps : options.solutionLimit;
    this.symbols = options.symbols ?? PAPER_SYMBOLS;
    this.id = options.id ?? `sokoban/Sokoban-${this.rows}x${this.cols}`;
    this.legendLine = legend(this.symbols);
  }

  /** Generates the level of `seed` (retrying on other streams of it) and observes it. */
  reset(seed: number): string {
    const rng = new Rng(seed);
    for (let attempt = 0; ; attempt++) {
      if (attempt >= GENERATION_ATTEMPTS) throw new Error(`${this.id}: no level for seed ${seed}`);
      try {
        const g = generateLevel(attempt === 0 ? rng : rng.fork(`retry-${attempt}`), {
          rows: this.rows,
          cols: this.cols,
          boxes: this.numBoxes,
          genSteps: this.genSteps,
          searchDepth: this.searchDepth,
        });
        const solution = solve(g.level, this.solutionLimit ?? g.solutionBound);
        if (!solution) continue;
        this.setLevel(g.level, solution.actions.length, g.solutionBound);
        break;
      } catch (err) {
        if (!(err instanceof GenerationError)) throw err;
      }
    }
    return this.lastObservation;
  }

  /** Starts an episode on a given level (hand-made levels in tests and the UI). */
  load(level: Level): string {
    const solution = solve(level);
    this.setLevel(cloneLevel(level), solution ? solution.actions.length : -1, -1);
    return this.lastObservation;
  }

  /** Applies one action; after the episode has ended it returns done with no change. */
  step(action: string): StepResult {
    const ended = guardStep(this.id, this.started, this.finished, this.lastObservation);
    if (ended) return ended;
    this.steps++;
    const dir = parseDirection(actionText(action));
    if (dir < 0) {
      this.finished = this.steps >= this.maxSteps;
      this.lastAction = null;
      this.lastReward = 0;
      this.lastObservation = `${notUnderstoodLine(DIRECTIONS)}\n${this.observe()}`;
      return invalidStep(this.lastObservation, this.finished);
    }
    const before = boxesOnTarget(this.level);
    const moved = applyMove(this.level, dir);
    const after = boxesOnTarget(this.level);
    let reward = STEP_PENALTY;
    if (after > before) reward += BOX_ON_TARGET_REWARD;
    else if (after < before) reward += BOX_OFF_TARGET_PENALTY;
    this.success = isSolved(this.level);
    if (this.success) reward += FINISHED_REWARD;
    this.finished = this.success || this.steps >= this.maxSteps;
    this.lastAction = DIRECTIONS[dir] as string;
    this.lastReward = reward;
    this.lastObservation = this.observe();
    return {
      observation: this.lastObservation,
      reward,
      done: this.finished,
      info: { success: this.success, actionIsValid: true, actionIsEffective: moved.moved },
    };
  }

  /** RAGEN's Sokoban instruction. */
  instruction(): string {
    return SOKOBAN_INSTRUCTION;
  }

  /** Up, Down, Left, Right. */
  validActions(): string[] {
    return [...DIRECTIONS];
  }

  /** Whether the episode has ended. */
  isDone(): boolean {
    return this.finished;
  }

  /** Moves taken this episode. */
  stepCount(): number {
    return this.steps;
  }

  /** The scripted expert: the next move of a shortest solution from the current state. */
  expert(): { action: string; reason: string } {
    if (!this.started) throw new Error(`${this.id}: call reset(seed) before expert()`);
    return this.planner.next(this.level);
  }

  /** Plain JSON for viewers. */
  view(): SokobanView {
    const level = this.level;
    const cells = (pred: (i: number) => boolean) =>
      [...level.fixed.keys()].filter(pred).map((i) => cellOf(level, i));
    return {
      kind: 'sokoban',
      id: this.id,
      rows: level.rows,
      cols: level.cols,
      grid: symbolRows(level, this.symbols),
      legend: this.legendLine,
      player: cellOf(level, level.player),
      boxes: level.boxes.map((b) => cellOf(level, b)),
      targets: cells((i) => level.fixed[i] === TARGET),
      walls: cells((i) => level.fixed[i] === 0),
      boxesOnTarget: boxesOnTarget(level),
      numBoxes: level.boxes.length,
      optimalSteps: this.optimalSteps,
      steps: this.steps,
      maxSteps: this.maxSteps,
      done: this.finished,
      success: this.success,
      lastAction: this.lastAction,
      lastReward: this.lastReward,
    };
  }

  private setLevel(level: Level, optimalSteps: number, bound: number): void {
    this.level = level;
    this.optimalSteps = optimalSteps;
    this.solutionBound = bound;
    this.steps = 0;
    this.finished = false;
    this.success = false;
    this.started = true;
    this.lastAction = null;
    this.lastReward = 0;
    this.planner.clear();
    this.lastObservation = this.observe();
  }

  private observe(): string {
    return `${renderGrid(this.level, this.symbols)}\n${this.legendLine}`;
  }
}
