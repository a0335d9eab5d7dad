// What the drawn env views say in words: the caption under a FrozenLake or Sokoban grid, the
// step count against the budget that really ends the episode (the run's action budget when it is
// tighter than the env's own limit), and the two-armed bandit's arms, payouts, pull and what
// "success" means there (RAGEN's: choosing the high-risk arm, whatever it paid this time).
import type { BanditView } from '../../envs/bandit/env.js';
import type { FrozenLakeView } from '../../envs/frozenlake/env.js';
import type { SokobanView } from '../../envs/sokoban/env.js';

/** "step 3 of 15": against the run's action budget when given and tighter than the env's limit. */
export function stepWords(steps: number, envMax: number, budget?: number): string {
  const of = budget !== undefined && budget > 0 ? Math.min(budget, envMax) : envMax;
  return `step ${steps} of ${of}`;
}

const at = (p: { row: number; col: number }) => `row ${p.row + 1}, column ${p.col + 1}`;

/** The line under a FrozenLake drawing. */
export function lakeCaption(view: FrozenLakeView, budget?: number): string {
  const where = view.success
    ? 'Player on the goal'
    : view.done && view.holes.some((h) => h.row === view.player.row && h.col === view.player.col)
      ? `Player fell into the hole at ${at(view.player)}`
      : `Player at ${at(view.player)}, goal at ${at(view.goal)}`;
  const slid =
    view.lastAction && view.lastMove
      ? view.lastAction === view.lastMove
        ? `; moved ${view.lastAction}`
        : `; asked ${view.lastAction}, slid ${view.lastMove} on the ice`
      : '';
  const slippery =
    view.pIntended < 1 ? ` A move goes the way asked with probability ${+view.pIntended.toFixed(2)}.` : '';
  return `${where}${slid}; ${stepWords(view.steps, view.maxSteps, budget)}${view.done ? ', episode over' : ''}.${slippery}`;
}

/** The line under a Sokoban drawing. */
export function sokobanCaption(view: SokobanView, budget?: number): string {
  const boxes = `${view.boxesOnTarget} of ${view.numBoxes} box${view.numBoxes === 1 ? '' : 'es'} on target`;
  const last = view.lastAction ? `; last move ${view.lastAction}` : '';
  const solved = view.success ? ', solved' : view.done ? ', episode over' : '';
  return `${boxes}${last}; ${stepWords(view.steps, view.maxSteps, budget)}${solved}. Shortest solution: ${view.optimalSteps} move${view.optimalSteps === 1 ? '' : 's'}.`;
}

/** One arm as a person reads it. */
export interface ArmWords {
  name: string;
  risk: 'low' | 'high';
  /** "always pays 0.1" / "pays 1 with probability 25% (0.25 on average), else 0". */
  payout: string;
  chosen: boolean;
}

export interface BanditWords {
  arms: ArmWords[];
  /** What happened: before the pull, the pull and its payout, or text that named no arm. */
  outcome: string;
  /** What "success" means for this env. */
  successMeaning: string;
}

const num = (v: number) => String(+v.toFixed(3));

/** The bandit's arms (in the order shown to the agent), its outcome and its success rule. */
export function banditWords(view: BanditView): BanditWords {
  const { lowRisk, highRisk, highRiskProbability: p } = view.payouts;
  const mean = highRisk * p;
  const arms = view.arms.map(
    (name): ArmWords => ({
      name,
      risk: name === view.highRiskArm ? 'high' : 'low',
      payout:
        name === view.highRiskArm
          ? `pays ${num(highRisk)} with probability ${Math.round(p * 100)}% (${num(mean)} on average), else 0`
          : `always pays ${num(lowRisk)}`,
      chosen: name === view.chosen,
    }),
  );
  let outcome: string;
  if (view.chosen !== null) {
    const risk = view.chosen === view.highRiskArm ? 'the high-risk arm' : 'the low-risk arm';
    outcome = `Pulled ${view.chosen}, ${risk}: it paid ${num(view.lastReward)}.`;
  } else if (view.done) {
    outcome = 'The answer named neither arm: no pull, reward 0.';
  } else {
    outcome = 'No arm pulled yet: one pull ends the episode.';
  }
  const better = mean >= lowRisk ? 'higher' : 'lower';
  const successMeaning = `Success means choosing ${view.highRiskArm}, the high-risk arm (${num(mean)} on average, ${better} than ${view.lowRiskArm}'s sure ${num(lowRisk)}), whatever it paid this time — as in RAGEN.`;
  return { arms, outcome, successMeaning };
}
