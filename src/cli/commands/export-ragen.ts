// `npm run starpo -- export-ragen --config run/config.json [--ragen v2|v1]`: the same experiment
// as RAGEN config overrides (YAML for its Hydra `config/base.yaml`), so a user who outgrows the
// browser can rerun it on a real LLM with RAGEN's own trainer (verl on Ray). One mapping table
// holds both generations of RAGEN's keys: v2 (its current home, the default) and v1 (the paper
// era), each checked against that version's base.yaml (RAGEN_SOURCES). Each key carries a comment
// naming the playground field it comes from; fields RAGEN has no knob for are listed at the end
// instead of being dropped silently; what RAGEN can say of each filter, keep order, loss
// aggregation and ratio level is a table keyed by the config's options (a new option is a row).
import { readFile, writeFile } from 'node:fs/promises';
import { Document } from 'yaml';
import { type Config, completeConfig, formatErrors, MAX_CONFIG_FILE_BYTES } from '../../core/config.js';
import { estimatorOf } from '../../core/variants/estimators.js';
import { FILTERS } from '../../core/variants/filters.js';
import { LOSS_AGGS } from '../../core/variants/lossAggs.js';
import { policyLossOf } from '../../core/variants/policyLosses.js';
import { RATIO_LEVELS } from '../../core/variants/ratioLevels.js';
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
  {
    name: 'ragen',
    kind: 'string',
    help: 'RAGEN\u2019s config generation: v2 (its current keys, the default) or v1 (the paper era)',
  },
];

type Leaf = string | number | boolean;

/** RAGEN's two config generations: v1 the paper era, v2 its current home. */
export type RagenVersion = 'v1' | 'v2';

/** The upstream config each version's keys were checked against (ragen-keys.fixture.ts lists them). */
export const RAGEN_SOURCES: Readonly<Record<RagenVersion, string>> = {
  v1: 'RAGEN-AI/RAGEN branch v0423 @ f92df5d67266af273d9c5ea4d25eb96d235b41ff, config/base.yaml (+ verl @ 797f999 ppo_trainer.yaml)',
  v2: 'mll-lab-nu/RAGEN main @ 20daedc47558e000f7de912b060646bf2e8026bd, config/base.yaml (+ verl 0.6.1 @ d62da49 ppo_trainer.yaml)',
};

/** One mapped setting: YAML path, value, and the playground field it comes from. */
export interface Mapped {
  path: string;
  value: Leaf;
  from: string;
}

/**
 * One row of the mapping: the key in each version (absent where that version has none) and the
 * value from the config. A row whose value is undefined for a config is left out (and a reason is
 * given among the unmapped lines where the config uses a switch RAGEN cannot express).
 */
interface MapRow {
  v1?: string;
  v2?: string;
  value: (c: Config, x: Derived) => Leaf | undefined;
  from: string;
}

/** What several rows read off the config. */
interface Derived {
  model: string;
  klInLoss: boolean;
  klInReward: boolean;
  klType: 'kl' | 'low_var_kl';
  estimator: 'gae' | 'grpo';
  /** The paper's std filter (subsample or oversample, std order). */
  stdFilter: boolean;
}

/** Each `filterOrder` as RAGEN's filter types; `byStd` false for the random keep it has no knob for. */
const RAGEN_ORDERS: Readonly<Record<Config['filterOrder'], { v1: string; v2: string; byStd: boolean }>> = {
  'highest-std': { v1: 'std', v2: 'largest', byStd: true },
  'lowest-std': { v1: 'std_rev', v2: 'smallest', byStd: true },
  random: { v1: 'std', v2: 'largest', byStd: false },
};

/**
 * The entropy-mechanism losses as verl's keys (core/variants/policyLosses rows' verlMode), as unmapped
 * lines: RAGEN's own actor takes the clipped loss and does not read verl's policy_loss block.
 */
function policyLossUnmapped(c: Config): string[] {
  const row = policyLossOf(c.policyLoss);
  if (!row.selects) return [];
  const knobs =
    row.verlMode === 'clip_cov'
      ? `clip_cov_ratio=${c.clipCovRatio} clip_cov_lb=${c.clipCovLow} clip_cov_ub=${c.clipCovHigh}`
      : `kl_cov_ratio=${c.klCovRatio} ppo_kl_coef=${c.klCovCoef}`;
  return [
    `policyLoss ${c.policyLoss}: RAGEN's actor takes the clipped loss; verl selects it with actor_rollout_ref.actor.policy_loss.loss_mode=${row.verlMode} (policy_loss.${knobs.replaceAll(' ', ' policy_loss.')}), which RAGEN's own actor does not read`,
  ];
}

// biome-ignore format: one row per key reads as a table
const ROWS: readonly MapRow[] = [
  { v1: 'model_path', v2: 'model_path', value: (_, x) => x.model, from: 'modelSize (the playground trains its own tiny transformer)' },
  { v1: 'enable_response_mask', v2: 'enable_response_mask', value: (c) => !c.lossOnEnvTokens, from: 'lossOnEnvTokens (inverted)' },
  { v1: 'ppo_mini_batch_size', v2: 'ppo_mini_batch_size', value: (c) => c.minibatch, from: 'minibatch' },
  { v1: 'actor_rollout_ref.actor.entropy_coeff', v2: 'actor_rollout_ref.actor.entropy_coeff', value: (c) => c.entropyCoef, from: 'entropyCoef' },
  { v1: 'actor_rollout_ref.actor.use_kl_loss', v2: 'actor_rollout_ref.actor.use_kl_loss', value: (_, x) => x.klInLoss, from: 'klCoef > 0 and klMode = loss' },
  { v1: 'actor_rollout_ref.actor.kl_loss_coef', v2: 'actor_rollout_ref.actor.kl_loss_coef', value: (c, x) => (x.klInLoss ? c.klCoef : 0), from: 'klCoef when klMode = loss' },
  { v1: 'actor_rollout_ref.actor.kl_loss_type', v2: 'actor_rollout_ref.actor.kl_loss_type', value: (_, x) => x.klType, from: 'klEstimator (k3 = low_var_kl)' },
  { v2: 'actor_rollout_ref.actor.loss_agg_mode', value: (c) => c.lossAgg, from: 'lossAgg' },
  { v1: 'actor_rollout_ref.actor.clip_ratio_low', v2: 'actor_rollout_ref.actor.clip_ratio_low', value: (c) => c.clipLow, from: 'clipLow' },
  { v1: 'actor_rollout_ref.actor.clip_ratio_high', v2: 'actor_rollout_ref.actor.clip_ratio_high', value: (c) => c.clipHigh, from: 'clipHigh' },
  { v1: 'actor_rollout_ref.actor.grad_clip', v2: 'actor_rollout_ref.actor.grad_clip', value: (c) => c.gradClip, from: 'gradClip' },
  { v1: 'actor_rollout_ref.actor.ppo_epochs', v2: 'actor_rollout_ref.actor.ppo_epochs', value: (c) => c.epochs, from: 'epochs' },
  { v1: 'actor_rollout_ref.actor.optim.lr', v2: 'actor_rollout_ref.actor.optim.lr', value: (c) => c.lr, from: 'lr (rescale for an LLM: RAGEN uses 1e-6)' },
  { v1: 'critic.optim.lr', v2: 'critic.optim.lr', value: (c) => c.criticLr, from: 'criticLr (RAGEN uses 1e-5)' },
  { v1: 'critic.cliprange_value', v2: 'critic.cliprange_value', value: (c) => c.valueClip, from: 'valueClip' },
  { v1: 'actor_rollout_ref.rollout.temperature', v2: 'actor_rollout_ref.rollout.temperature', value: (c) => c.temperature, from: 'temperature' },
  { v1: 'actor_rollout_ref.rollout.response_length', v2: 'actor_rollout_ref.rollout.response_length', value: (c) => c.maxTokensPerTurn, from: 'maxTokensPerTurn' },
  // The rollout filter: v1's ratio and std order; v2's strategy, value, type, metric and include_zero.
  { v1: 'actor_rollout_ref.rollout.rollout_filter_ratio', value: (c, x) => (x.stdFilter ? c.filterRatio : 1), from: 'filterMode and filterRatio (1 = off)' },
  { v1: 'actor_rollout_ref.rollout.rollout_filter_type', value: (c) => RAGEN_ORDERS[c.filterOrder].v1, from: 'filterOrder' },
  { v2: 'actor_rollout_ref.rollout.rollout_filter_strategy', value: (_, x) => (x.stdFilter ? 'top_k' : 'top_p'), from: 'filterMode (subsample/oversample: top_k by share; top-p and off: top_p)' },
  { v2: 'actor_rollout_ref.rollout.rollout_filter_value', value: (c, x) => (x.stdFilter ? c.filterRatio : FILTERS[c.filterMode].ragen.topP(c)), from: 'filterRatio (top_k), filterTopP (top-p), 1 = off' },
  { v2: 'actor_rollout_ref.rollout.rollout_filter_type', value: (c) => RAGEN_ORDERS[c.filterOrder].v2, from: 'filterOrder' },
  { v2: 'actor_rollout_ref.rollout.rollout_filter_metric', value: () => 'reward_variance', from: 'the filters rank groups by reward std (the same order as variance)' },
  { v2: 'actor_rollout_ref.rollout.rollout_filter_include_zero', value: (c) => FILTERS[c.filterMode].ragen.includeZero, from: 'filterMode (top-p never keeps a zero-variance group)' },
  { v2: 'actor_rollout_ref.rollout.rollout_filter_top_p_prob_mode', value: () => 'linear', from: 'the top-p filter accumulates variance linearly' },
  { v2: 'actor_rollout_ref.rollout.rollout_filter_selection_eps', value: () => 0.01, from: 'the top-p filter’s eps' },
  { v1: 'algorithm.adv_estimator', v2: 'algorithm.adv_estimator', value: (_, x) => x.estimator, from: 'advantage (its estimator row’s ragen, core/variants/estimators)' },
  { v2: 'algorithm.norm_adv_by_std_in_grpo', value: (c) => c.normAdvByStd, from: 'normAdvByStd' },
  { v1: 'algorithm.gamma', v2: 'algorithm.gamma', value: (c) => c.gamma, from: 'gamma' },
  { v1: 'algorithm.lam', v2: 'algorithm.lam', value: (c) => c.lambda, from: 'lambda' },
  { v2: 'algorithm.use_kl_in_reward', value: (_, x) => x.klInReward, from: 'klCoef > 0 and klMode = reward' },
  { v1: 'algorithm.kl_penalty', v2: 'algorithm.kl_penalty', value: (_, x) => x.klType, from: 'klEstimator (k3 = low_var_kl)' },
  { v1: 'algorithm.kl_ctrl.type', v2: 'algorithm.kl_ctrl.type', value: () => 'fixed', from: 'klCoef is a fixed coefficient' },
  { v1: 'algorithm.kl_ctrl.kl_coef', v2: 'algorithm.kl_ctrl.kl_coef', value: (c, x) => (x.klInReward ? c.klCoef : 0), from: 'klCoef when klMode = reward' },
  { v1: 'trainer.total_training_steps', v2: 'trainer.total_training_steps', value: (c) => c.iterations, from: 'iterations' },
  { v1: 'trainer.test_freq', v2: 'trainer.test_freq', value: (c) => c.evalEvery, from: 'evalEvery' },
  { v1: 'trainer.critic_warmup', v2: 'trainer.critic_warmup', value: (c) => c.criticWarmup, from: 'criticWarmup' },
  { v1: 'agent_proxy.max_turn', v2: 'agent_proxy.max_turn', value: (c) => c.maxTurns, from: 'maxTurns' },
  { v1: 'agent_proxy.max_actions_per_turn', v2: 'agent_proxy.max_actions_per_turn', value: (c) => c.maxActionsPerTurn, from: 'maxActionsPerTurn' },
  { v1: 'agent_proxy.use_turn_scores', v2: 'agent_proxy.use_turn_scores', value: (c) => c.rewardPlacement === 'per-turn', from: 'rewardPlacement' },
  { v2: 'agent_proxy.context_window_mode', value: (c) => c.historyTurns >= c.maxTurns ? 'full' : c.historyTurns === 1 ? 'single_turn' : 'limited_multi_turn', from: 'historyTurns (all turns: full; the current one: single_turn)' },
  { v2: 'agent_proxy.max_context_window', value: (c) => (c.historyTurns > 1 && c.historyTurns < c.maxTurns ? c.historyTurns : undefined), from: 'historyTurns (limited_multi_turn)' },
  { v1: 'agent_proxy.reward_normalization.grouping', v2: 'agent_proxy.reward_normalization.grouping', value: () => 'state', from: 'groups share a start state (GRPO groups by it)' },
  { v1: 'agent_proxy.reward_normalization.method', v2: 'agent_proxy.reward_normalization.method', value: (_, x) => (x.estimator === 'grpo' ? 'mean_std' : 'identity'), from: 'advantage (grpo needs mean_std)' },
  { v1: 'es_manager.format_penalty', v2: 'es_manager.format_penalty', value: (c) => -c.formatPenalty, from: 'formatPenalty (negated)' },
  { v1: 'es_manager.train.env_groups', v2: 'es_manager.train.env_groups', value: (c) => c.groups, from: 'groups' },
  { v1: 'es_manager.train.group_size', v2: 'es_manager.train.group_size', value: (c) => c.groupSize, from: 'groupSize' },
  { v1: 'es_manager.val.env_groups', v2: 'es_manager.val.env_groups', value: (c) => c.evalEpisodes, from: 'evalEpisodes' },
  { v1: 'es_manager.val.group_size', v2: 'es_manager.val.group_size', value: () => 1, from: 'one rollout per held-out start state' },
];

/** Every key the mapping can write in `version` (the test checks them against that version's base.yaml). */
export function ragenPaths(version: RagenVersion): string[] {
  return ROWS.flatMap((r) => (r[version] ? [r[version] as string] : []));
}

/** The RAGEN overrides for a config in `version`'s keys (base.yaml order), and what has no key. */
export function ragenOverrides(
  c: Config,
  model: string,
  version: RagenVersion = 'v2',
): { mapped: Mapped[]; unmapped: string[] } {
  const kl = c.klCoef > 0;
  const estimator = estimatorOf(c);
  const filter = FILTERS[c.filterMode].ragen;
  const order = RAGEN_ORDERS[c.filterOrder];
  // RAGEN's two KL placements (v0423 train_all.sh): PPO runs keep use_kl_loss off and subtract
  // kl_ctrl.kl_coef · KL(old ‖ ref) from the token rewards (apply_kl_penalty; v2 gates it with
  // algorithm.use_kl_in_reward); GRPO runs turn use_kl_loss on with kl_loss_coef.
  const x: Derived = {
    model,
    klInLoss: kl && c.klMode === 'loss',
    klInReward: kl && c.klMode === 'reward',
    klType: c.klEstimator === 'k3' ? 'low_var_kl' : 'kl',
    estimator: estimator.ragen ?? 'gae',
    stdFilter: filter.topK && order.byStd,
  };
  const mapped: Mapped[] = [];
  for (const row of ROWS) {
    const path = row[version];
    const value = path ? row.value(c, x) : undefined;
    if (path && value !== undefined) mapped.push({ path, value, from: row.from });
  }
  const v1 = version === 'v1';
  const unmapped: string[] = [
    `env ${c.env}: RAGEN has no MiniGrid or WebShop-lite env with these semantics; register one in RAGEN's env config and set es_manager.train.env_configs.tags`,
    `maxActionsPerTraj ${c.maxActionsPerTraj}: set max_actions_all_turns in the env config`,
    ...filter.unmapped(c, v1),
    ...(filter.ordered && !order.byStd
      ? ['filterOrder random (the random-keep control): RAGEN has no random group selection']
      : []),
    ...(v1 && !LOSS_AGGS[c.lossAgg].ragenV1
      ? [
          `lossAgg ${c.lossAgg}: RAGEN v1's actor always takes a token mean; export with --ragen v2 (loss_agg_mode)`,
        ]
      : []),
    ...(v1 && !c.normAdvByStd
      ? ['normAdvByStd false (Dr. GRPO): RAGEN v1 always divides by the group std; export with --ragen v2']
      : []),
    ...(v1 && c.historyTurns < c.maxTurns
      ? [`historyTurns ${c.historyTurns}: RAGEN v1 keeps every turn in the context`]
      : []),
    ...RATIO_LEVELS[c.ratioLevel].ragenUnmapped,
    ...policyLossUnmapped(c),
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
  usage: `usage: npm run -s starpo -- export-ragen --config <run>/config.json [--ragen v2|v1] [--out overrides.yaml]\n\n${flagHelp(FLAGS)}`,
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
    const version = f.ragen ?? 'v2';
    if (version !== 'v1' && version !== 'v2')
      throw new UsageError(`--ragen: must be v1 or v2, got ${JSON.stringify(version)}`);
    const { mapped, unmapped } = ragenOverrides(
      r.config,
      typeof f.model === 'string' ? f.model : 'Qwen/Qwen2.5-0.5B-Instruct',
      version,
    );
    const yaml = `${toYaml(mapped, [
      `RAGEN ${version} overrides for ${r.config.algorithm} on ${r.config.env}, seed ${r.config.seed} (from StarPO Playground).`,
      `Keys as in ${RAGEN_SOURCES[version]}.`,
      'Use: python train.py --config-name base plus these keys (Hydra), or merge into a config file.',
    ])}${unmapped.map((u) => `# not mapped: ${u}`).join('\n')}\n`;
    if (typeof f.out === 'string') await writeFile(f.out, yaml);
    else io.stdout.write(yaml);
    return 0;
  },
};
