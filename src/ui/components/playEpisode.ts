// One "play it yourself" episode under the run's own episode rules, as core/rl/rollout.ts
// plays the agent's: up to `maxTurns` turns of up to `maxActionsPerTurn` actions each, out of a
// budget of `maxActionsPerTraj` actions; the agent reads the state only at the start of a turn
// ("turn i state: … actions left: k"); a turn with an invalid action costs the format penalty.
// The person's actions step the env at once (the drawing follows), and a turn ends when its
// actions are used, the budget is spent, the env ends, or the person ends it.
import { turnText } from '../../core/prompt.js';
import type { TextEnv } from '../../envs/types.js';

/** The config fields that shape an episode. */
export interface PlayRules {
  maxTurns: number;
  maxActionsPerTurn: number;
  maxActionsPerTraj: number;
  formatPenalty: number;
}

export interface PlayLogEntry {
  turn: number;
  action: string;
  reward: number;
  valid: boolean;
}

export interface PlayState {
  env: TextEnv;
  rules: PlayRules;
  /** 1-based turn being played. */
  turn: number;
  /** Actions taken in this turn so far. */
  inTurn: number;
  /** Budget left at the start of this turn, as the agent reads it. */
  actionsLeft: number;
  /** Actions taken in the whole episode. */
  used: number;
  /** The observation the agent read at the start of this turn. */
  turnObservation: string;
  /** The env's latest observation (after this turn's actions so far). */
  observation: string;
  /** Any invalid action in this turn (the turn then costs the format penalty). */
  turnInvalid: boolean;
  /** The env said done (goal, hole, purchase, its own step limit). */
  envDone: boolean;
  total: number;
  done: boolean;
  /** Why the episode ended, in words (null while it runs). */
  endedBy: string | null;
  log: PlayLogEntry[];
  view: unknown;
}

/** A fresh episode of `env` on `seed`. */
export function startEpisode(env: TextEnv, seed: number, rules: PlayRules): PlayState {
  const observation = env.reset(seed);
  return {
    env,
    rules,
    turn: 1,
    inTurn: 0,
    actionsLeft: rules.maxActionsPerTraj,
    used: 0,
    turnObservation: observation,
    observation,
    turnInvalid: false,
    envDone: false,
    total: 0,
    done: false,
    endedBy: null,
    log: [],
    view: env.view(),
  };
}

/** The text the agent reads for the current turn (the prompt's layout, core/prompt.ts). */
export function agentText(s: PlayState): string {
  return `${s.env.instruction()}\n${turnText(s.turn, s.turnObservation, s.actionsLeft)}`;
}

/** Actions still allowed in this turn. */
export function actionsLeftInTurn(s: PlayState): number {
  return Math.max(0, Math.min(s.rules.maxActionsPerTurn - s.inTurn, s.actionsLeft - s.inTurn));
}

/** Closes the current turn (penalty, budget, turn limit); a no-op before any action of it. */
export function endTurn(s: PlayState): PlayState {
  if (s.done || s.inTurn === 0) return s;
  const penalty = s.turnInvalid ? s.rules.formatPenalty : 0;
  const actionsLeft = s.actionsLeft - s.inTurn;
  const total = s.total - penalty;
  const endedBy = s.envDone
    ? 'the environment ended it'
    : actionsLeft <= 0
      ? `the action budget (${s.rules.maxActionsPerTraj}) is spent`
      : s.turn >= s.rules.maxTurns
        ? `the turn limit (${s.rules.maxTurns}) is reached`
        : null;
  return {
    ...s,
    total,
    actionsLeft,
    turnInvalid: false,
    inTurn: 0,
    turn: endedBy ? s.turn : s.turn + 1,
    turnObservation: endedBy ? s.turnObservation : s.observation,
    done: endedBy !== null,
    endedBy,
  };
}

/** Takes one action in the current turn; ends the turn when it has no actions left. */
export function playAction(s: PlayState, action: string): PlayState {
  const a = action.trim();
  if (s.done || !a || actionsLeftInTurn(s) === 0) return s;
  const r = s.env.step(a);
  const next: PlayState = {
    ...s,
    inTurn: s.inTurn + 1,
    used: s.used + 1,
    observation: r.observation,
    turnInvalid: s.turnInvalid || !r.info.actionIsValid,
    envDone: r.done,
    total: s.total + r.reward,
    log: [...s.log, { turn: s.turn, action: a, reward: r.reward, valid: r.info.actionIsValid }],
    view: s.env.view(),
  };
  return r.done || actionsLeftInTurn(next) === 0 ? endTurn(next) : next;
}
