// `npm run starpo -- export-ragen --config run/config.json`: the same experiment as RAGEN
// config overrides (YAML for its Hydra `config/base.yaml`), so a user who outgrows the browser
// can rerun it on a real LLM with RAGEN's own trainer (verl on Ray). Each key carries a
// comment naming the playground field it comes from; fields RAGEN has no knob for are listed
// at the end instead of being dropped silently. Mapping: reference/ragen.md §1–2 and RAGEN's
// base.yaml (actor_rollout_ref, algorithm, agent_proxy, es_manager).
import { readFile, writeFile } from 'node:fs/promises';
import { Document } from 'yaml';
import { type Config, completeConfig, formatErrors, MAX_CONFIG_FILE_BYTES } from '../../core/config.js';
import { estimatorOf } from '../../core/rl/estimators.js';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';

const FLAGS: FlagSpec[] = [
  { name: 'config', kind: 'string', help: 'a run config JSON (e.g. <run>/config.json) (required)' },
  { name: 'out', kind: 'string', help: 'write the YAML here instead of standard output' },
  {
    name: 'model',
    kind: 'string',
    help: 'the HF model RAGEN should train (default Qwen/Qwen2.5-0.5B-Instruct)',
  },
];

type Leaf = string | number | boolean;
/** One mapped setting: YAML path, value, and the playground field it comes from. */
export interface Mapped {
  path: string;
  value: Leaf;
  from: string;
}

/** The RAGEN overrides for a config, in base.yaml order. */
export function ragenOverrides(c: Config, model: string): { mapped: Mapped[]; unmapped: string[] } {
  const kl = c.klCoef > 0;
  const estimator = estimatorOf(c);
  const ragenEstimator = estimator.ragen ?? 'gae';
  // RAGEN's two KL placements (v0423 train_all.sh): PPO runs keep use_kl_loss off and subtract
  // kl_ctrl.kl_coef · KL(old ‖ ref) from the token rewards (apply_kl_penalty; RAGEN main gates it
  // with algorithm.use_kl_in_reward); GRPO runs turn use_kl_loss on with kl_loss_coef.
  const inLoss = kl && c.klMode === 'loss';
  const inReward = kl && c.klMode === 'reward';
  const klType = c.klEstimator === 'k3' ? 'low_var_kl' : 'kl';
  const filtered = c.filterMode !== 'off';
  const mapped: Mapped[] = [
    { path: 'model_path', value: model, from: 'modelSize (the playground trains its own tiny transformer)' },
    { path: 'enable_response_mask', value: !c.lossOnEnvTokens, from: 'lossOnEnvTokens (inverted)' },
    { path: 'ppo_mini_batch_size', value: c.minibatch, from: 'minibatch' },
    { path: 'actor_rollout_ref.actor.entropy_coeff', value: c.entropyCoef, from: 'entropyCoef' },
    { path: 'actor_rollout_ref.actor.use_kl_loss', value: inLoss, from: 'klCoef > 0 and klMode = loss' },
    {
      path: 'actor_rollout_ref.actor.kl_loss_coef',
      value: inLoss ? c.klCoef : 0,
      from: 'klCoef when klMode = loss',
    },
    { path: 'actor_rollout_ref.actor.kl_loss_type', value: klType, from: 'klEstimator (k3 = low_var_kl)' },
    { path: 'actor_rollout_ref.actor.loss_agg_mode', value: c.lossAgg, from: 'lossAgg' },
    { path: 'actor_rollout_ref.actor.clip_ratio_low', value: c.clipLow, from: 'clipLow' },
    { path: 'actor_rollout_ref.actor.clip_ratio_high', value: c.clipHigh, from: 'clipHigh' },
    { path: 'actor_rollout_ref.actor.grad_clip', value: c.gradClip, from: 'gradClip' },
    { path: 'actor_rollout_ref.actor.ppo_epochs', value: c.epochs, from: 'epochs' },
    {
      path: 'actor_rollout_ref.actor.optim.lr',
      value: c.lr,
      from: 'lr (rescale for an LLM: RAGEN uses 1e-6)',
    },
    { path: 'critic.optim.lr', value: c.criticLr, from: 'criticLr (RAGEN uses 1e-5)' },
    { path: 'critic.cliprange_value', value: c.valueClip, from: 'valueClip' },
    { path: 'actor_rollout_ref.rollout.temperature', value: c.temperature, from: 'temperature' },
    {
      path: 'actor_rollout_ref.rollout.response_length',
      value: c.maxTokensPerTurn,
      from: 'maxTokensPerTurn',
    },
    {
      path: 'actor_rollout_ref.rollout.rollout_filter_ratio',
      value: filtered ? c.filterRatio : 1,
      from: 'filterMode and filterRatio (1 = off)',
    },
    {
      path: 'actor_rollout_ref.rollout.rollout_filter_type',
      value: c.filterOrder === 'lowest-std' ? 'std_rev' : 'std',
      from: 'filterOrder',
    },
    { path: 'algorithm.adv_estimator', value: ragenEstimator, from: 'advantage (estimators.ts ragen)' },
    { path: 'algorithm.gamma', value: c.gamma, from: 'gamma' },
    { path: 'algorithm.lam', value: c.lambda, from: 'lambda' },
    { path: 'algorithm.use_kl_in_reward', value: inReward, from: 'klCoef > 0 and klMode = reward' },
    { path: 'algorithm.kl_penalty', value: klType, from: 'klEstimator (k3 = low_var_kl)' },
    { path: 'algorithm.kl_ctrl.type', value: 'fixed', from: 'klCoef is a fixed coefficient' },
    {
      path: 'algorithm.kl_ctrl.kl_coef',
      value: inReward ? c.klCoef : 0,
      from: 'klCoef when klMode = reward',
    },
    { path: 'trainer.total_training_steps', value: c.iterations, from: 'iterations' },
    { path: 'trainer.test_freq', value: c.evalEvery, from: 'evalEvery' },
    { path: 'agent_proxy.max_turn', value: c.maxTurns, from: 'maxTurns' },
    { path: 'agent_proxy.max_actions_per_turn', value: c.maxActionsPerTurn, from: 'maxActionsPerTurn' },
    { path: 'agent_proxy.use_turn_scores', value: c.rewardPlacement === 'per-turn', from: 'rewardPlacement' },
    {
      path: 'agent_proxy.reward_normalization.grouping',
      value: 'state',
      from: 'groups share a start state (GRPO groups by it)',
    },
    {
      path: 'agent_proxy.reward_normalization.method',
      value: ragenEstimator === 'grpo' ? 'mean_std' : 'identity',
      from: 'advantage (grpo needs mean_std; ragen.md §1)',
    },
    { path: 'es_manager.format_penalty', value: -c.formatPenalty, from: 'formatPenalty (negated)' },
    { path: 'es_manager.train.env_groups', value: c.groups, from: 'groups' },
    { path: 'es_manager.train.group_size', value: c.groupSize, from: 'groupSize' },
    { path: 'es_manager.val.env_groups', value: c.evalEpisodes, from: 'evalEpisodes' },
    { path: 'es_manager.val.group_size', value: 1, from: 'one rollout per held-out start state' },
  ];
  const unmapped: string[] = [
    `env ${c.env}: RAGEN has no MiniGrid or WebShop-lite env with these semantics; register one in RAGEN's env config and set es_manager.train.env_configs.tags`,
    `maxActionsPerTraj ${c.maxActionsPerTraj}: set max_actions_all_turns in the env config`,
    ...(c.filterMode === 'oversample'
      ? [
          'filterMode oversample: RAGEN filters the groups it rolled out; raise env_groups to groups / filterRatio to match',
        ]
      : []),
    ...(c.criticWarmup > 0 ? [`criticWarmup ${c.criticWarmup}: set trainer.critic_warmup (verl)`] : []),
    ...(c.outlierDrop || c.thinkingCritic || c.klEarlyStop > 0 || c.lrWarmup > 0
      ? ['starpo-s+ stabilisers (2σ drop, thinking critic, KL early stop, LR warm-up): no RAGEN knob']
      : []),
    ...(c.stepsPerIteration > 0
      ? [
          `stepsPerIteration ${c.stepsPerIteration}: set ppo_mini_batch_size = kept trajectories / ${c.stepsPerIteration}`,
        ]
      : []),
    ...(estimator.ragen === null
      ? [
          `advantage ${c.advantage} (${estimator.label}): not a RAGEN estimator; exported as its nearest (gae)`,
        ]
      : []),
  ];
  return { mapped, unmapped };
}

/**
 * Nested YAML from dotted paths (keys grouped in first-seen order), each leaf with the field it
 * comes from as its comment, the header as comment lines on top (the yaml package's Document).
 */
export function toYaml(mapped: readonly Mapped[], header: readonly string[]): string {
  const doc = new Document({});
  for (const m of mapped) {
    const leaf = doc.createNode(m.value);
    leaf.comment = ` ${m.from}`;
    doc.setIn(m.path.split('.'), leaf);
  }
  if (doc.contents) doc.contents.commentBefore = header.map((h) => ` ${h}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}

export const exportRagenCommand: Command = {
  name: 'export-ragen',
  summary: 'write a run config as RAGEN (verl on Ray) config overrides in YAML',
  usage: `usage: npm run -s starpo -- export-ragen --config <run>/config.json [--out overrides.yaml]\n\n${flagHelp(FLAGS)}`,
  async run(args, io) {
    const f = parseFlags(args, FLAGS);
    if (typeof f.config !== 'string') throw new UsageError('--config <file> is required');
    const text = await readFile(f.config, 'utf8').catch((err: Error) => {
      throw new UsageError(`--config: cannot read ${f.config}: ${err.message}`);
    });
    if (text.length > MAX_CONFIG_FILE_BYTES)
      throw new UsageError(`--config: larger than ${MAX_CONFIG_FILE_BYTES} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`--config: not valid JSON: ${(err as Error).message}`);
    }
    const r = completeConfig(json);
    if (!r.ok) throw new UsageError(`--config: ${formatErrors(r.errors)}`);
    const { mapped, unmapped } = ragenOverrides(
      r.config,
      typeof f.model === 'string' ? f.model : 'Qwen/Qwen2.5-0.5B-Instruct',
    );
    const yaml = `${toYaml(mapped, [
      `RAGEN overrides for ${r.config.algorithm} on ${r.config.env}, seed ${r.config.seed} (from StarPO Playground).`,
      'Use: python train.py --config-name base plus these keys (Hydra), or merge into a config file.',
    ])}${unmapped.map((u) => `# not mapped: ${u}`).join('\n')}\n`;
    if (typeof f.out === 'string') await writeFile(f.out, yaml);
    else io.stdout.write(yaml);
    return 0;
  },
};
