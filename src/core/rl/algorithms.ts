// The named algorithms as presets of switches. Each preset sets every switch it
// owns, so changing algorithm never leaves a stale switch from the previous one; every switch
// stays settable on its own afterwards, so the paper's ablations are one change each.
import { type Config, defaultConfig } from '../config.js';
import { estimatorOf } from '../variants/estimators.js';

type Switches = Pick<
  Config,
  | 'advantage'
  | 'whiten'
  | 'klCoef'
  | 'klMode'
  | 'normAdvByStd'
  | 'filterMode'
  | 'filterRatio'
  | 'filterTopP'
  | 'lossAgg'
  | 'ratioLevel'
  | 'clipLow'
  | 'clipHigh'
  | 'criticWarmup'
  | 'outlierDrop'
  | 'thinkingCritic'
  | 'gradClip'
  | 'klEarlyStop'
  | 'lrWarmup'
>;

export interface AlgorithmSpec {
  name: Config['algorithm'];
  /** Short name for legends and tables. */
  label: string;
  /** One line for the algorithm table. */
  summary: string;
  /** Its line colour in every chart and figure (study, bands), one per algorithm. */
  colour: string;
  /** Its advantage estimator, update and critic use are those of `switches.advantage` (core/variants/estimators). */
  switches: Switches;
}

const STARPO: Switches = {
  advantage: 'gae',
  whiten: true,
  klCoef: 0.001,
  // RAGEN's paper runs of PPO (train_all.sh USE_PPO: use_kl_loss False, kl_ctrl.kl_coef 0.001):
  // KL subtracted per token from the reward (agent_trainer.py apply_kl_penalty).
  klMode: 'reward',
  normAdvByStd: true,
  filterMode: 'off',
  filterRatio: 0.25,
  // No preset picks a top-p of its own: the field's default (RAGEN-2's 0.9), written in config.ts.
  filterTopP: defaultConfig().filterTopP,
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

const STARPO_S: Switches = {
  ...STARPO,
  klCoef: 0,
  filterMode: 'subsample',
  clipHigh: 0.28,
  // RAGEN's StarPO-S runs have critic_warmup 0; warm-up stays a switch any algorithm can take.
  criticWarmup: 0,
};

export const ALGORITHMS: Readonly<Record<Config['algorithm'], AlgorithmSpec>> = {
  'ppo-turn': {
    name: 'ppo-turn',
    label: 'PPO (per turn)',
    colour: '#8d6a9f',
    summary: 'Standard PPO: each turn is its own sample (no history), critic + GAE over turns.',
    switches: { ...STARPO, advantage: 'turn-gae', klCoef: 0 },
  },
  'starpo-ppo': {
    name: 'starpo-ppo',
    label: 'StarPO (PPO)',
    colour: '#d1495b',
    summary:
      'StarPO: the whole trajectory as one sequence, critic + GAE (γ = λ = 1), KL 0.001 per token in the reward.',
    switches: STARPO,
  },
  'starpo-grpo': {
    name: 'starpo-grpo',
    label: 'StarPO (GRPO)',
    colour: '#edae49',
    summary:
      'StarPO with group-normalised advantages (R − mean)/std within each start state, no critic, KL 0.001 in the loss.',
    // RAGEN's GRPO runs (train_all.sh USE_GRPO: use_kl_loss True, kl_loss_coef 0.001): KL in the loss.
    switches: { ...STARPO, advantage: 'grpo', klMode: 'loss' },
  },
  // The 2026 variants (RAGEN v2's main table, verl and TRL): each is GRPO's group-relative
  // advantage with one change, so a comparison with starpo-grpo isolates it.
  'starpo-drgrpo': {
    name: 'starpo-drgrpo',
    label: 'Dr. GRPO',
    colour: '#c46210',
    summary:
      'GRPO without the division by the group’s std (R − mean) and each sequence’s token-sum loss averaged over sequences (Liu et al. 2025; RAGEN v2: norm_adv_by_std_in_grpo False, seq-mean-token-sum).',
    switches: {
      ...STARPO,
      advantage: 'grpo',
      klMode: 'loss',
      normAdvByStd: false,
      lossAgg: 'seq-mean-token-sum',
    },
  },
  'starpo-gspo': {
    name: 'starpo-gspo',
    label: 'GSPO',
    colour: '#3d5a80',
    summary:
      'GRPO with one importance ratio per sequence (the geometric mean of its token ratios), clipped per sequence at 1 − 3e-4 … 1 + 4e-4 (Zheng et al. 2025; verl policy_loss gspo).',
    switches: {
      ...STARPO,
      advantage: 'grpo',
      klMode: 'loss',
      ratioLevel: 'sequence',
      clipLow: 3e-4,
      clipHigh: 4e-4,
    },
  },
  'starpo-dapo': {
    name: 'starpo-dapo',
    label: 'DAPO',
    colour: '#7a306c',
    summary:
      'GRPO with DAPO’s changes (Yu et al. 2025): clip-higher 0.2/0.28, no KL, token-level loss, and dynamic sampling (groups whose rewards are all equal dropped, more rolled out, up to 3 batches).',
    switches: {
      ...STARPO,
      advantage: 'grpo',
      klCoef: 0,
      klMode: 'loss',
      clipHigh: 0.28,
      filterMode: 'dynamic',
    },
  },
  'starpo-s': {
    name: 'starpo-s',
    label: 'StarPO-S',
    colour: '#2e86ab',
    summary: 'StarPO-S: keep the top 25% of groups by reward std, critic + GAE, clip-higher 0.28, no KL.',
    switches: STARPO_S,
  },
  'starpo-s+': {
    name: 'starpo-s+',
    label: 'StarPO-S+',
    colour: '#66a182',
    summary:
      'StarPO-S plus stabilisers proposed beside RAGEN’s paper: 2σ drop, thinking critic, clip 0.5, KL stop, LR warm-up.',
    switches: {
      ...STARPO_S,
      outlierDrop: true,
      thinkingCritic: true,
      gradClip: 0.5,
      klEarlyStop: 0.05,
      lrWarmup: 0.1,
    },
  },
  'dpo-online': {
    name: 'dpo-online',
    label: 'Online DPO',
    colour: '#555555',
    summary: 'Online DPO: best vs worst trajectory of each group against the reference policy.',
    switches: { ...STARPO, advantage: 'none', klCoef: 0, klMode: 'loss' },
  },
};

/** The config with `name`'s switches applied (other fields unchanged). */
export function applyAlgorithm(config: Config, name: Config['algorithm']): Config {
  const spec = ALGORITHMS[name];
  if (!spec) throw new Error(`unknown algorithm "${name}"`);
  return { ...config, ...spec.switches, algorithm: name };
}

/** Whether the config's advantage estimator trains a critic (core/variants/estimators). */
export function usesCritic(config: Pick<Config, 'advantage'>): boolean {
  return estimatorOf(config).critic;
}
