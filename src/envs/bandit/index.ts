// The registered two-armed bandits (RAGEN's Bandit, BanditTest, BanditRev and the later
// profession pairs) and their scripted expert.
//
// | id                            | arm pairs [low risk, high risk]                   |
// |-------------------------------|---------------------------------------------------|
// | bandit/Bandit                 | Phoenix, Dragon (training pair)                   |
// | bandit/Bandit-test            | Trader, Librarian (RAGEN's held-out BanditTest)   |
// | bandit/BanditRev              | Dragon, Phoenix (meanings reversed)               |
// | bandit/Bandit-professions     | 12 profession pairs, e.g. Teacher, Trader         |
// | bandit/Bandit-professions-test| 8 held-out profession pairs, e.g. Cashier, DataScientist |
// Every id: one action; low-risk arm 0.1, high-risk arm 1 w.p. 0.25; success = high-risk arm.
// Evaluation of every id runs on held-out seeds of the same id (new arm order and payouts), not
// on the held-out pairs as in the paper: a word-level model trained from scratch has never seen
// "Trader" or "Librarian" (they would be <unk>), so it cannot even name them and would score 0.
// The held-out pairs stay registered (bandit/Bandit-test, bandit/Bandit-professions-test) for
// an explicit evaluation, e.g. of a model whose vocabulary covers them.
//
// Using the expert:
//   const env = makeEnv('bandit/Bandit');
//   env.reset(seed);
//   const { action, reason } = banditExpert(env);  // "Dragon", "Dragon pays 1 with probability 0.25, …"
//   env.step(action);
import type { EnvSpec, TextEnv } from '../types.js';
import { BanditEnv, type BanditOptions } from './env.js';

export { ARM_POOLS, type ArmPair, type ArmPool } from './arms.js';
export {
  BANDIT_INSTRUCTION,
  BanditEnv,
  type BanditOptions,
  type BanditView,
  HIGH_RISK_PROBABILITY,
  HIGH_RISK_REWARD,
  LOW_RISK_REWARD,
} from './env.js';

function spec(id: string, summary: string, options: BanditOptions): EnvSpec {
  return {
    id,
    family: 'bandit',
    summary,
    stochastic: true,
    maxSteps: 1,
    make: (): TextEnv => new BanditEnv({ ...options, id }),
    expert: (env: TextEnv) => banditExpert(env),
  };
}

/** Every registered bandit id. */
export const banditEnvs: EnvSpec[] = [
  spec('bandit/Bandit', 'Two-armed bandit, Phoenix (safe 0.1) or Dragon (1 w.p. 0.25): pick by the names', {
    pool: 'train',
  }),
  spec(
    'bandit/Bandit-test',
    'Held-out bandit pair Trader (safe) / Librarian (risky), as RAGEN’s BanditTest',
    {
      pool: 'test',
    },
  ),
  spec('bandit/BanditRev', 'Bandit with the meanings reversed: Dragon is safe, Phoenix is the gamble', {
    pool: 'reversed',
  }),
  spec('bandit/Bandit-professions', 'Bandit over 12 profession pairs (safe job vs risky job)', {
    pool: 'professionsTrain',
  }),
  spec('bandit/Bandit-professions-test', 'Bandit over 8 held-out profession pairs', {
    pool: 'professionsTest',
  }),
];

/**
 * The scripted expert's action for an env made by one of `banditEnvs` (after `reset`): the
 * high-risk arm, whose mean payout (0.25) beats the low-risk arm's 0.1, with a one-line reason.
 * Throws for other envs.
 */
export function banditExpert(env: TextEnv): { action: string; reason: string } {
  if (!(env instanceof BanditEnv)) throw new Error(`banditExpert: ${env.id} is not a bandit env`);
  return env.expert();
}
