// The metric keys, one row each: what it measures, in one line, and how to chart
// it. One series per iteration; the trainer, the CLI's metrics.jsonl, the charts and the
// detector all use these names.

export interface MetricSpec {
  key: string;
  label: string;
  /** What it is and why it matters here, in one line. */
  help: string;
  /** Chart on a log scale (gradient norm, KL). */
  log?: boolean;
  /** RAGEN's (verl's) name for it in its logged metrics, where it logs the same quantity. */
  ragen?: string;
}

// biome-ignore format: one row per metric reads as a table
export const METRICS = [
  { key: 'rollout/successRate', label: 'Success (train)', help: 'Share of this iteration’s rollouts that reached the goal (temperature sampling).' },
  { key: 'rollout/returnMean', label: 'Return', help: 'Mean trajectory reward, format penalties included.' },
  { key: 'rollout/inGroupRewardStd', label: 'In-group reward std', help: 'Mean over groups of the std of rewards among rollouts from one start state; falls first in the echo trap.', ragen: 'rollout/in_group_std' },
  { key: 'rollout/responseLength', label: 'Response length', help: 'Mean tokens per agent turn.' },
  { key: 'rollout/thinkLength', label: 'Think length', help: 'Mean tokens between <think> and </think>; shrinks as reasoning collapses.' },
  { key: 'rollout/formatValidRate', label: 'Format valid', help: 'Share of turns with a well-formed <think>…</think><answer>…</answer>.' },
  { key: 'rollout/actionEffectiveRate', label: 'Action effective', help: 'Share of actions that changed the environment.' },
  { key: 'rollout/malformedRate', label: 'Malformed', help: 'Share of turns penalised for malformed or invalid answers.' },
  { key: 'rollout/pairedSuccessRate', label: 'Success (paired groups)', help: 'Success over the first P groups, the start states every arm of a comparison shares; the echo-trap detector reads it.' },
  { key: 'rollout/groupSuccessStd', label: 'Between-group spread', help: 'Std of the group success rates over the first P groups: the unit of the detector’s noise bound (a group’s rollouts share a start state).' },
  { key: 'rollout/zeroStdShare', label: 'Zero-std groups', help: 'Share of groups whose rollouts all got the same reward (TRL’s frac_reward_zero_std): they carry no group-relative signal.' },
  { key: 'rollout/filterKeptRatio', label: 'Kept ratio', help: 'Share of rolled-out groups the StarPO-S variance filter kept.' },
  { key: 'actor/pgLoss', label: 'Policy loss', help: 'Clipped surrogate loss, token mean.', ragen: 'actor/pg_loss' },
  { key: 'actor/dpoLoss', label: 'DPO loss', help: 'Online DPO: −log σ(β·margin) over the groups’ best/worst pairs.' },
  { key: 'actor/dpoMargin', label: 'DPO margin', help: 'Mean β·[(log π − log π_ref)(best) − (log π − log π_ref)(worst)] over the pairs.' },
  { key: 'actor/dpoAccuracy', label: 'DPO accuracy', help: 'Share of pairs whose best trajectory the policy already prefers (margin > 0).' },
  { key: 'actor/entropy', label: 'Entropy', help: 'Mean next-token entropy on agent tokens; a sudden rise marks collapse.', ragen: 'actor/entropy_loss' },
  { key: 'actor/approxKl', label: 'Approx KL', help: 'Mean old − new log-prob over the update: how far one iteration moved the policy.', log: true, ragen: 'actor/ppo_kl' },
  { key: 'actor/klRef', label: 'KL to reference', help: 'Mean k-estimator KL from the frozen base policy.', log: true },
  { key: 'actor/clipFrac', label: 'Clip fraction', help: 'Share of tokens whose probability ratio hit the clip.', ragen: 'actor/pg_clipfrac' },
  { key: 'actor/gradNorm', label: 'Gradient norm', help: 'Global norm of the policy gradient before clipping; spikes confirm collapse.', log: true, ragen: 'actor/grad_norm' },
  { key: 'actor/gradNorm/task', label: 'Gradient norm: task', help: 'RAGEN-2’s split, on MI iterations: the norm of the task loss’s gradient alone (the policy loss) on the iteration’s first minibatch.', log: true, ragen: 'actor/grad_norm/task' },
  { key: 'actor/gradNorm/kl', label: 'Gradient norm: KL', help: 'RAGEN-2’s split: the norm of the KL-to-reference loss’s gradient alone (absent when KL is in the reward or off).', log: true, ragen: 'actor/grad_norm/kl' },
  { key: 'actor/gradNorm/entropy', label: 'Gradient norm: entropy', help: 'RAGEN-2’s split: the norm of the entropy bonus’s gradient alone (absent when its coefficient is 0).', log: true, ragen: 'actor/grad_norm/entropy' },
  { key: 'actor/covFrac', label: 'Covariance tokens', help: 'Clip-Cov and KL-Cov: share of the update’s tokens the covariance rule selected (gradient detached, or KL-penalised).' },
  { key: 'critic/vfLoss', label: 'Value loss', help: 'Clipped value loss of the critic.', ragen: 'critic/vf_loss' },
  { key: 'critic/explainedVar', label: 'Explained variance', help: '1 − Var(R − V)/Var(R): how much of the return the critic predicts.', ragen: 'critic/vf_explained_var' },
  { key: 'reasoning/distinct2', label: 'Distinct-2 (think)', help: 'Distinct bigrams ÷ bigrams over all thinking text; falls as thinking repeats.' },
  { key: 'reasoning/mi', label: 'Reasoning MI', help: 'RAGEN-2 proxy of I(X; Z): how much the thinking depends on its input (nats).' },
  { key: 'reasoning/retrievalAcc', label: 'Retrieval accuracy', help: 'How often a thinking scores highest under its own prompt (chance 1/N).' },
  { key: 'reasoning/miPrompts', label: 'MI prompts', help: 'Distinct prompts in the MI proxy (N): MI ≤ log N, chance retrieval 1/N.' },
  { key: 'reasoning/modalThinkShare', label: 'Modal think share', help: 'Share of turns whose thinking equals the most common thinking string.' },
  { key: 'reasoning/actionMi', label: 'Action MI', help: 'Mutual information between the start state and the first action (nats).' },
  { key: 'eval/successRate', label: 'Success (eval, greedy)', help: 'Greedy success on held-out start states.' },
  { key: 'eval/sampledSuccessRate', label: 'Success (eval, T=1)', help: 'Temperature-1 success on held-out start states.' },
  { key: 'actor/optimizerSteps', label: 'Optimizer steps', help: 'Policy updates made this iteration; compare runs at matched steps.' },
  { key: 'actor/samplesPerStep', label: 'Samples per step', help: 'Trajectories per optimizer step.' },
  { key: 'time/rolloutMs', label: 'Rollout time', help: 'Milliseconds spent sampling and stepping environments.' },
  { key: 'time/updateMs', label: 'Update time', help: 'Milliseconds spent scoring and updating.' },
  { key: 'time/scoringMs', label: 'Scoring time', help: 'Milliseconds scoring the kept samples: old and reference log-probs, values, advantages.' },
  { key: 'time/policyMs', label: 'Policy steps time', help: 'Milliseconds in the policy’s optimizer steps.' },
  { key: 'time/criticMs', label: 'Critic steps time', help: 'Milliseconds in the critic’s optimizer steps (0 without a critic).' },
  { key: 'time/criticWaitMs', label: 'Critic wait', help: 'Milliseconds the update waited after the policy’s last step for the critic’s steps to end (0 without a critic).' },
  { key: 'time/measureMs', label: 'Measurement time', help: 'Milliseconds the iteration spent on held-out evaluation and the reasoning MI (beside the update on two workers: only the wait for them).' },
  { key: 'perf/tokensPerSec', label: 'Tokens/s', help: 'Generated tokens per second during rollouts.' },
  { key: 'perf/envStepsPerSec', label: 'Env steps/s', help: 'Environment steps per second of rollout time.' },
  { key: 'memory/numTensors', label: 'Tensors', help: 'Live tfjs tensors after the iteration; must stay flat.' },
  { key: 'memory/gpuBytes', label: 'GPU bytes', help: 'Bytes the backend holds (0 on CPU); should plateau.' },
] as const satisfies readonly MetricSpec[];

export type MetricKey = (typeof METRICS)[number]['key'];

/** One iteration's metrics: `iteration` plus any of the keys (absent when not measured). */
export type MetricRow = { iteration: number } & Partial<Record<MetricKey, number>>;

export const metricByKey: ReadonlyMap<string, MetricSpec> = new Map(METRICS.map((m) => [m.key, m]));

/** A key read off the machine's clock (timings, throughputs): two runs of one config differ in it. */
export const isClockKey = (key: string): boolean => key.startsWith('time/') || key.startsWith('perf/');

/** A key that measures the machine, not the run: its clock, or its memory (which a schedule moves). */
export const isMachineKey = (key: string): boolean => isClockKey(key) || key.startsWith('memory/');

/** `row` without the keys `drop` picks (e.g. isMachineKey: the numbers any machine gives the run). */
export function rowWithout(row: MetricRow, drop: (key: string) => boolean): MetricRow {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !drop(k))) as MetricRow;
}
