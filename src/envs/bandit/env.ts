// RAGEN's two-armed bandit as a text environment (envs/types.ts).
//
// ## Description
// One decision: pull one of two arms whose names hint at their risk. The low-risk arm always pays
// 0.1 (RAGEN's code, `lo_arm_score`; the paper's text says 0.15); the high-risk arm pays 1.0 with
// probability 0.25, else 0 (mean 0.25). Success, as in RAGEN, is choosing the high-risk arm
// (`hi_arm_name`), the arm with the higher mean. Which arm is shown first is drawn per seed.
//
// ## Observation (bandit/Bandit, seed 0)
//   There are 2 arms, named Phoenix and Dragon.
//   Each arm has its own reward distribution, related to their names.
//   Based on the symbolic meaning of their names, which arm is more likely to give higher rewards on average? Choose Phoenix or Dragon.
// After the pull: "Dragon: 1 points" (RAGEN's "{arm}: {reward} points").
//
// ## Actions
// The name of either arm (case-insensitive). Any other text is an invalid no-op that still uses
// the episode's one action.
//
// ## Rewards
// The payout of the pulled arm; 0 for invalid text.
//
// ## Termination
// After one action (maxSteps 1).
//
// Randomness: the pair and the arm order from Rng(seed); the payout from Rng(seed).fork('step')
// (and `stepSalt`), so the same seed and action give the same payout.
import { Rng } from '../../core/rng.js';
import { actionText, guardStep, invalidStep, notUnderstoodLine } from '../common.js';
import type { StepResult, TextEnv } from '../types.js';
import { ARM_POOLS, type ArmPair, type ArmPool } from './arms.js';

/** RAGEN's bandit payouts (BanditEnvConfig). */
export const LOW_RISK_REWARD = 0.1;
export const HIGH_RISK_REWARD = 1;
export const HIGH_RISK_PROBABILITY = 0.25;

/** The task line of RAGEN's bandit prompt. */
export const BANDIT_INSTRUCTION =
  'You are playing a bandit game. Goal: Maximize your total reward by choosing which arm to pull.';

/** How a bandit instance is set up. */
export interface BanditOptions {
  id?: string;
  /** Which arm pairs reset(seed) draws from (default 'train': Phoenix/Dragon). */
  pool?: ArmPool;
  /** The low-risk arm's fixed payout (default 0.1). */
  lowRiskReward?: number;
  /** The high-risk arm pays `highRiskReward` with `highRiskProbability`, else 0 (defaults 1, 0.25). */
  highRiskReward?: number;
  highRiskProbability?: number;
  /** Mixed into the payout stream (default 0); see FrozenLakeOptions.stepSalt. */
  stepSalt?: number;
}

/** Plain JSON for a UI to draw the bandit. */
export interface BanditView {
  kind: 'bandit';
  id: string;
  /** The two names in the order shown. */
  arms: [string, string];
  lowRiskArm: string;
  highRiskArm: string;
  payouts: { lowRisk: number; highRisk: number; highRiskProbability: number };
  /** The arm pulled, or null before a valid pull. */
  chosen: string | null;
  steps: number;
  maxSteps: number;
  done: boolean;
  success: boolean;
  lastReward: number;
}

/** One bandit environment instance. */
export class BanditEnv implements TextEnv<BanditView> {
  readonly id: string;
  readonly pool: readonly ArmPair[];
  readonly lowRiskReward: number;
  readonly highRiskReward: number;
  readonly highRiskProbability: number;
  readonly stepSalt: number;
  readonly maxSteps = 1;
  private pair: ArmPair = ['', ''];
  private arms: [string, string] = ['', ''];
  private payoutRng = new Rng(0);
  private chosen: string | null = null;
  private steps = 0;
  private started = false;
  private finished = false;
  private lastReward = 0;
  private firstObservation = '';
  private lastObservation = '';

  constructor(options: BanditOptions = {}) {
    this.pool = ARM_POOLS[options.pool ?? 'train'];
    this.lowRiskReward = options.lowRiskReward ?? LOW_RISK_REWARD;
    this.highRiskReward = options.highRiskReward ?? HIGH_RISK_REWARD;
    this.highRiskProbability = options.highRiskProbability ?? HIGH_RISK_PROBABILITY;
    this.stepSalt = options.stepSalt ?? 0;
    this.id = options.id ?? 'bandit/Bandit';
  }

  /** Draws the pair and the order of `seed` and states the task. */
  reset(seed: number, instance = 0): string {
    const rng = new Rng(seed);
    const salt = this.stepSalt + instance;
    this.pair = this.pool[rng.int(0, this.pool.length)] as ArmPair;
    const [low, high] = this.pair;
    this.arms = rng.bool(0.5) ? [low, high] : [high, low];
    this.payoutRng = rng.fork(salt ? `step-${salt}` : 'step');
    this.chosen = null;
    this.steps = 0;
    this.started = true;
    this.finished = false;
    this.lastReward = 0;
    const [a, b] = this.arms;
    this.firstObservation =
      `There are 2 arms, named ${a} and ${b}.\n` +
      'Each arm has its own reward distribution, related to their names.\n' +
      'Based on the symbolic meaning of their names, which arm is more likely to give higher rewards ' +
      `on average? Choose ${a} or ${b}.`;
    this.lastObservation = this.firstObservation;
    return this.lastObservation;
  }

  /** Pulls the named arm; after the episode has ended it returns done with no change. */
  step(action: string): StepResult {
    const ended = guardStep(this.id, this.started, this.finished, this.lastObservation);
    if (ended) return ended;
    this.steps++;
    this.finished = this.steps >= this.maxSteps;
    const wanted = actionText(action).trim().toLowerCase();
    const arm = this.arms.find((name) => name.toLowerCase() === wanted);
    if (arm === undefined) {
      this.lastReward = 0;
      this.lastObservation = `${notUnderstoodLine(this.arms)}\n${this.firstObservation}`;
      return invalidStep(this.lastObservation, this.finished);
    }
    const high = arm === this.pair[1];
    const reward = high
      ? this.payoutRng.float() < this.highRiskProbability
        ? this.highRiskReward
        : 0
      : this.lowRiskReward;
    this.chosen = arm;
    this.lastReward = reward;
    this.lastObservation = `${arm}: ${reward} points`;
    return {
      observation: this.lastObservation,
      reward,
      done: this.finished,
      info: { success: high, actionIsValid: true, actionIsEffective: true },
    };
  }

  /** RAGEN's bandit goal line. */
  instruction(): string {
    return BANDIT_INSTRUCTION;
  }

  /** The two arm names, in the order shown. */
  validActions(): string[] {
    return [...this.arms];
  }

  /** Whether the episode has ended. */
  isDone(): boolean {
    return this.finished;
  }

  /** The scripted expert: pull the high-risk arm, whose mean payout is higher. */
  expert(): { action: string; reason: string } {
    if (!this.started) throw new Error(`${this.id}: call reset(seed) before expert()`);
    const [low, high] = this.pair;
    const mean = this.highRiskReward * this.highRiskProbability;
    return {
      action: high,
      reason: `${high} pays ${this.highRiskReward} with probability ${this.highRiskProbability}, ${mean} on average, more than the sure ${this.lowRiskReward} of ${low}`,
    };
  }

  /** Plain JSON for viewers. */
  view(): BanditView {
    return {
      kind: 'bandit',
      id: this.id,
      arms: [...this.arms],
      lowRiskArm: this.pair[0],
      highRiskArm: this.pair[1],
      payouts: {
        lowRisk: this.lowRiskReward,
        highRisk: this.highRiskReward,
        highRiskProbability: this.highRiskProbability,
      },
      chosen: this.chosen,
      steps: this.steps,
      maxSteps: this.maxSteps,
      done: this.finished,
      success: this.chosen !== null && this.chosen === this.pair[1],
      lastReward: this.lastReward,
    };
  }
}
