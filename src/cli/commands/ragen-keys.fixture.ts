// RAGEN's config keys as its two generations define them, read from upstream (config/base.yaml
// and the verl ppo_trainer.yaml it includes, at the commits in export-ragen.ts RAGEN_SOURCES):
// the keys each version has, and keys one version has that the other does not. The exporter's
// test checks every key it writes is one its version has. Facts, recorded by reading the files.

/** Keys present in v1 (RAGEN-AI/RAGEN v0423 @ f92df5d) base.yaml, or its verl defaults. */
export const RAGEN_V1_KEYS: readonly string[] = [
  'model_path',
  'enable_response_mask',
  'ppo_mini_batch_size',
  'micro_batch_size_per_gpu',
  'actor_rollout_ref.actor.entropy_coeff',
  'actor_rollout_ref.actor.use_kl_loss',
  'actor_rollout_ref.actor.kl_loss_coef',
  'actor_rollout_ref.actor.kl_loss_type',
  'actor_rollout_ref.actor.clip_ratio_low',
  'actor_rollout_ref.actor.clip_ratio_high',
  'actor_rollout_ref.actor.grad_clip',
  'actor_rollout_ref.actor.ppo_epochs',
  'actor_rollout_ref.actor.optim.lr',
  'critic.optim.lr',
  'critic.cliprange_value',
  'actor_rollout_ref.rollout.temperature',
  'actor_rollout_ref.rollout.response_length',
  'actor_rollout_ref.rollout.rollout_filter_ratio',
  'actor_rollout_ref.rollout.rollout_filter_type',
  'algorithm.adv_estimator',
  'algorithm.gamma',
  'algorithm.lam',
  'algorithm.kl_penalty',
  'algorithm.kl_ctrl.type',
  'algorithm.kl_ctrl.kl_coef',
  'trainer.total_training_steps',
  'trainer.test_freq',
  'trainer.critic_warmup',
  'agent_proxy.max_turn',
  'agent_proxy.max_actions_per_turn',
  'agent_proxy.use_turn_scores',
  'agent_proxy.reward_normalization.grouping',
  'agent_proxy.reward_normalization.method',
  'es_manager.format_penalty',
  'es_manager.train.env_groups',
  'es_manager.train.group_size',
  'es_manager.val.env_groups',
  'es_manager.val.group_size',
];

/** Keys v2 (mll-lab-nu/RAGEN main @ 20daedc) has that v1 does not. */
const V2_ONLY: readonly string[] = [
  'actor_rollout_ref.actor.loss_agg_mode',
  'actor_rollout_ref.actor.filter_loss_scaling',
  'actor_rollout_ref.rollout.rollout_filter_value',
  'actor_rollout_ref.rollout.rollout_filter_strategy',
  'actor_rollout_ref.rollout.rollout_filter_include_zero',
  'actor_rollout_ref.rollout.rollout_filter_top_p_prob_mode',
  'actor_rollout_ref.rollout.rollout_filter_selection_eps',
  'actor_rollout_ref.rollout.rollout_filter_metric',
  'actor_rollout_ref.rollout.rollout_filter_empty_stop_steps',
  'algorithm.norm_adv_by_std_in_grpo',
  'algorithm.use_kl_in_reward',
  'algorithm.high_level_gamma',
  'algorithm.bi_level_gae',
  'agent_proxy.context_window_mode',
  'agent_proxy.max_context_window',
];

/** v1 keys v2 renamed away (its trainer falls back to rollout_filter_ratio, but base.yaml has none). */
export const RAGEN_V2_DROPPED: readonly string[] = ['actor_rollout_ref.rollout.rollout_filter_ratio'];

/** Keys present in v2's base.yaml or its verl defaults. */
export const RAGEN_V2_KEYS: readonly string[] = [
  ...RAGEN_V1_KEYS.filter((k) => !RAGEN_V2_DROPPED.includes(k)),
  ...V2_ONLY,
];

/** Allowed values in v2 (its rollout filter code and config comments). */
export const RAGEN_V2_VALUES: Readonly<Record<string, readonly (string | boolean)[]>> = {
  'actor_rollout_ref.rollout.rollout_filter_strategy': ['top_p', 'top_k', 'top_k_abs', 'min_p'],
  'actor_rollout_ref.rollout.rollout_filter_type': ['largest', 'smallest'],
  'actor_rollout_ref.rollout.rollout_filter_metric': [
    'reward_variance',
    'reward',
    'reward_sum',
    'entropy',
    'entropy_variance',
    'length',
  ],
  'actor_rollout_ref.rollout.rollout_filter_top_p_prob_mode': ['linear', 'softmax'],
  'actor_rollout_ref.actor.loss_agg_mode': ['token-mean', 'seq-mean-token-mean', 'seq-mean-token-sum'],
  'agent_proxy.context_window_mode': ['full', 'limited_multi_turn', 'single_turn'],
  'algorithm.adv_estimator': ['gae', 'grpo'],
};

/** Allowed values in v1. */
export const RAGEN_V1_VALUES: Readonly<Record<string, readonly (string | boolean)[]>> = {
  'actor_rollout_ref.rollout.rollout_filter_type': ['std', 'std_rev'],
  'algorithm.adv_estimator': ['gae', 'grpo'],
};
