// The two switch sets the algorithms start from: StarPO as RAGEN's paper runs it with PPO, and
// StarPO-S (its stabilised form).
import { TOP_P_DEFAULT } from '../filters/topP.js';
import type { Switches } from './variant.js';

export const STARPO: Switches = {
  advantage: 'gae',
  whiten: true,
  klCoef: 0.001,
  // RAGEN's paper runs of PPO (train_all.sh USE_PPO: use_kl_loss False, kl_ctrl.kl_coef 0.001):
  // KL subtracted per token from the reward (agent_trainer.py apply_kl_penalty).
  klMode: 'reward',
  normAdvByStd: true,
  filterMode: 'off',
  filterRatio: 0.25,
  // No preset picks a top-p of its own: the field's default (RAGEN-2's 0.9).
  filterTopP: TOP_P_DEFAULT,
  lossAgg: 'token-mean',
  ratioLevel: 'token',
  clipLow: 0.2,
  clipHigh: 0.2,
  criticWarmup: 0,
  outlierDrop: false,
  thinkingCritic: false,
  gradClip: 1,
  klEarlyStop: 0,
  lrWarmup: 0,
};

export const STARPO_S: Switches = {
  ...STARPO,
  klCoef: 0,
  filterMode: 'subsample',
  clipHigh: 0.28,
  // RAGEN's StarPO-S runs have critic_warmup 0; warm-up stays a switch any algorithm can take.
  criticWarmup: 0,
};
