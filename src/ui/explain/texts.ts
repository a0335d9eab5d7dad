// The explanations of the playground (issue 11): for every metric key (core/metrics/keys.ts),
// every config field (core/config.ts FIELDS) and every echo-trap detector signal
// (core/metrics/detector.ts), what it is and why it matters for the echo trap, written for a
// student who knows what a policy gradient is, with the formula where one exists. Content
// follows the RAGEN paper (arXiv 2504.20073) and the RAGEN-AI/RAGEN repository (StarPO,
// StarPO-S, the echo trap and RAGEN-2's mutual-information proxy). vitest (texts.test.ts) checks
// every key has an entry.

import { ALGORITHMS } from '../../core/variants/algorithms.js';
import { ESTIMATOR_VARIANTS } from '../../core/variants/estimators.js';
import { FILTER_VARIANTS } from '../../core/variants/filters.js';
import { LOSS_AGG_VARIANTS } from '../../core/variants/lossAggs.js';
import { POLICY_LOSS_VARIANTS } from '../../core/variants/policyLosses.js';
import { RATIO_LEVEL_VARIANTS } from '../../core/variants/ratioLevels.js';
import type { ExplainKind } from '../store/explainSlice.js';

/** One explanation: what the thing is, why it matters here, and its formula if it has one. */
export interface Explanation {
  what: string;
  why: string;
  formula?: string;
}

/** One row of an axis as its setting's explanation reads it (core/variants/, each row's file). */
interface AxisRow {
  help: string;
  why?: string;
}

const capitalised = (t: string) => `${t.charAt(0).toUpperCase()}${t.slice(1)}`;

/**
 * A setting's explanation made of its axis's rows: `lead` then one clause per row; `why` then each
 * row's reason, so a new row brings its own words.
 */
function axisText(lead: string, rows: readonly AxisRow[], why: string, formula?: string): Explanation {
  const reasons = rows.flatMap((r) => (r.why ? [r.why] : [])).join('; ');
  return {
    what: `${lead}: ${rows.map((r) => r.help).join('; ')}.`,
    why: [why, reasons ? `${capitalised(reasons)}.` : ''].filter(Boolean).join(' '),
    ...(formula ? { formula } : {}),
  };
}

// biome-ignore format: one entry per row reads as a table
export const METRIC_TEXTS: Readonly<Record<string, Explanation>> = {
  'rollout/successRate': { what: 'The share of this iteration’s training rollouts (sampled at the training temperature) that reached the goal.', why: 'The curve the echo trap is judged on (over the first P groups, the paired rollouts): a trap is a rise beyond the noise followed by a fall back to at or below the run’s own start. Success that dips and stays above its start is not a trap.', formula: 'success = (1/PN) Σᵢ 1[trajectory i reached the goal]' },
  'rollout/returnMean': { what: 'The mean trajectory reward: environment rewards summed over the turns, minus the format penalty of each malformed turn.', why: 'A floor at −(turns × penalty) means every turn is malformed — RAGEN’s “all-malformed floor” at the end of a collapse.', formula: 'R = Σₜ rₜ − 0.1 · #malformed turns' },
  'rollout/inGroupRewardStd': { what: 'For each group (rollouts from the same start state) the standard deviation of their rewards, averaged over groups.', why: 'RAGEN’s first warning: when rollouts from one state all get the same reward, group-normalised advantages vanish and the gradient carries no task signal. It also falls in healthy runs that simply converged, so read it with success.', formula: 'mean over groups g of std({Rᵢ : i ∈ g})' },
  'rollout/responseLength': { what: 'The mean number of tokens the agent writes per turn.', why: 'Collapsing policies often change length sharply: empty answers, or text running to the token limit.' },
  'rollout/thinkLength': { what: 'The mean number of tokens between <think> and </think>.', why: 'RAGEN saw thinking shrink steadily over training (Sokoban 340 → 100 tokens): reasoning degrades before success does.' },
  'rollout/formatValidRate': { what: 'The share of turns whose answer is a well-formed <think>…</think><answer>…</answer>.', why: 'The format is learned: if it breaks, every action is lost and the turn is penalised.' },
  'rollout/actionEffectiveRate': { what: 'The share of the agent’s actions that changed the environment (moving into a wall does not).', why: 'An agent stuck repeating an ineffective action is a typical input-agnostic template.' },
  'rollout/malformedRate': { what: 'The share of turns penalised because the answer was malformed or named an invalid action.', why: 'One of the signals that separated collapsed runs from healthy ones in the prototype: collapsed runs end with every turn malformed.', formula: '#penalised turns / #turns' },
  'rollout/pairedSuccessRate': { what: 'Success over the first P groups of the iteration: the start states every arm of a comparison shares.', why: 'An oversampling arm rolls out more groups than vanilla; judging every arm on the same P × N paired rollouts keeps the echo-trap verdicts comparable. For an unfiltered run it equals training success.', formula: 'mean over g < P of (successes in g ÷ N)' },
  'rollout/groupSuccessStd': { what: 'The spread of success between the first P groups of the iteration.', why: 'Start states differ in difficulty, so a batch varies more than P × N coin flips would. The detector treats each group as one unit and uses this spread for its noise bound.', formula: 'std over g < P of (successes in g ÷ N), unbiased' },
  'rollout/zeroStdShare': { what: 'The share of groups whose rollouts all got the same reward (TRL’s frac_reward_zero_std).', why: 'Such a group gives group-normalised advantages of zero and, with a critic, only critic noise: the update there is driven by KL and entropy alone. It rises when the policy converges and when it collapses; read it with success.', formula: '#{g : std({Rᵢ : i ∈ g}) = 0} / #groups' },
  'rollout/filterKeptRatio': { what: 'The share of rolled-out groups the StarPO-S variance filter kept for the update.', why: 'With “subsample” the update sees fewer samples (fewer, smaller steps — a confound); with “oversample” more groups are rolled out so the kept batch keeps its size.', formula: 'kept groups / rolled-out groups' },
  'actor/pgLoss': { what: 'The clipped surrogate policy loss, averaged over the agent’s tokens.', why: 'Its scale follows the advantages; with zero-variance groups it sits near zero and only the KL and entropy terms move the policy.', formula: 'L = −mean_t min(ρₜ Aₜ, clip(ρₜ, 1−ε_low, 1+ε_high) Aₜ), ρₜ = π(aₜ|sₜ)/π_old(aₜ|sₜ)' },
  'actor/dpoLoss': { what: 'The online-DPO loss over the best/worst trajectory pairs of the groups.', why: 'DPO has no clipped surrogate; this is its own objective, falling as the policy separates the pairs more than the reference does.', formula: 'L = −mean log σ(β[(log π(w) − log π_ref(w)) − (log π(l) − log π_ref(l))])' },
  'actor/dpoMargin': { what: 'The mean implicit reward margin of the pairs: β times how much more the policy (relative to the reference) prefers the best trajectory.', why: 'A margin that grows without bound means the policy is pushing the pairs apart rather than learning the task.', formula: 'β · mean[(log π − log π_ref)(w) − (log π − log π_ref)(l)]' },
  'actor/dpoAccuracy': { what: 'The share of pairs whose best trajectory the policy already prefers (margin > 0).', why: 'Near 1 the DPO signal is used up on this batch.' },
  'actor/entropy': { what: 'The mean entropy of the next-token distribution on the agent’s tokens.', why: 'A steady decay is healthy learning; RAGEN saw entropy rise sharply as policies collapsed. A template can keep high entropy while ignoring its input, so entropy alone misses it.', formula: 'H = −Σ_v π(v|context) log π(v|context), averaged over agent tokens' },
  'actor/approxKl': { what: 'How far one iteration moved the policy: the mean difference of old and new log-probabilities on the update’s tokens.', why: 'Large values mean steps too big for the clip to contain — the regime (large lr, many updates per iteration) where tiny models fall into the trap.', formula: 'mean_t (log π_old(aₜ) − log π_new(aₜ))' },
  'actor/klRef': { what: 'The KL divergence from the frozen base (reference) policy, by the k1 or k3 estimator.', why: 'Vanilla StarPO penalises it (coefficient 0.001); StarPO-S drops the penalty so the policy may travel further from the base.', formula: 'k1 = log π/π_ref;  k3 = r − 1 − log r with r = π_ref/π' },
  'actor/clipFrac': { what: 'The share of tokens whose probability ratio fell outside the clip range.', why: 'High clip fractions mean the update tries to move further than PPO allows; clip-higher (ε_high 0.28) lets low-probability tokens grow more.', formula: 'mean_t 1[|ρₜ − 1| beyond ε]' },
  'actor/gradNorm': { what: 'The global L2 norm of the policy gradient before clipping.', why: 'Spikes of orders of magnitude are RAGEN’s confirmation of irreversible collapse; in tiny models the spike came earliest, but spikes also occur in healthy runs.', formula: '‖g‖₂ = sqrt(Σ_params Σ g²)' },
  'actor/gradNorm/task': { what: 'RAGEN-2’s gradient split: the norm of the gradient of the task loss alone (the policy loss on the advantages), on the iteration’s first minibatch, every MI iteration.', why: 'RAGEN-2’s mechanism of the trap: the task part scales with in-group reward variance, so when rollouts of a group stop differing it shrinks while the KL and entropy parts do not, and the regularisers steer the update. Watch whether it falls below the other two before success falls.', formula: '‖∇θ L_task‖₂, the gradient summed over micro-batches first' },
  'actor/gradNorm/kl': { what: 'RAGEN-2’s gradient split: the norm of the gradient of the KL-to-reference loss alone (present when KL is added to the loss).', why: 'When the task part fades, this part pulls the policy back toward the base model whatever the input: RAGEN-2’s account of template collapse.', formula: '‖∇θ (β_KL · KL)‖₂' },
  'actor/gradNorm/entropy': { what: 'RAGEN-2’s gradient split: the norm of the gradient of the entropy bonus alone (present when its coefficient is above 0).', why: 'A constant push toward higher entropy with no task signal behind it once groups are uniform.', formula: '‖∇θ (−c_H · H)‖₂' },
  'actor/covFrac': { what: 'Clip-Cov and KL-Cov: the share of the update’s tokens that the covariance rule picked (Clip-Cov detaches their gradient; KL-Cov adds a KL penalty on them).', why: 'Cui et al. (2025) trace entropy collapse to a few tokens whose log-probability and advantage covary strongly; these losses act on exactly those. At the echo-trap preset’s size it is one or two tokens a step.', formula: 'cov_t = (A_t − mean A)(log π_t − mean log π)' },
  'critic/vfLoss': { what: 'The clipped value loss of the critic (PPO-style value clipping around the old values).', why: 'A critic that cannot fit the returns feeds noise into the advantages; StarPO-S warms the critic up before policy updates for this reason.', formula: 'max((V − R)², (V_old + clip(V − V_old, ±c) − R)²) / 2' },
  'critic/explainedVar': { what: 'How much of the return’s variance the critic predicts.', why: 'Near 1: advantages are meaningful. Near 0 or negative: A = R − V is mostly critic noise, and whitening it turns that noise into full-size updates.', formula: '1 − Var(R − V) / Var(R)' },
  'reasoning/distinct2': { what: 'Distinct bigrams divided by all bigrams over the iteration’s thinking text.', why: 'Falls as the thinking repeats the same phrases: a cheap, coarse sign of template reasoning.', formula: '|unique bigrams| / |bigrams|' },
  'reasoning/mi': { what: 'RAGEN-2’s proxy of the mutual information between the input X (context up to <think>) and the reasoning Z: each sampled thinking is scored under every prompt of the batch.', why: 'The one signal that sees template collapse: reasoning can keep its entropy while no longer depending on the input. Falling MI means thinking became input-agnostic: 0 when a reasoning fits every prompt equally. It can go below 0 when each reasoning fits the other prompts better than its own (the chart’s axis then reaches below 0); log N is the most it can be.', formula: 'MI ≈ mean_i [log p(zᵢ|xᵢ) − log (1/N) Σⱼ p(zᵢ|xⱼ)], from below 0 up to log N' },
  'reasoning/retrievalAcc': { what: 'How often a thinking string scores highest under its own prompt among the N prompts of the batch.', why: 'At chance (1/N) the thinking carries no information about which state it was written for.', formula: 'mean_i 1[argmaxⱼ log p(zᵢ|xⱼ) = i]' },
  'reasoning/miPrompts': { what: 'How many distinct prompts the MI proxy compared (N).', why: 'MI is at most log N and chance retrieval is 1/N, so the MI curve is read against it; rollouts of a group share a prompt and only distinct prompts count.' },
  'reasoning/modalThinkShare': { what: 'The share of turns whose thinking is exactly the most common thinking string.', why: 'The prototype’s most direct template detector: it caught collapse (even empty thinks) that entropy missed.', formula: 'max_z #{turns with thinking z} / #turns' },
  'reasoning/actionMi': { what: 'The mutual information between the start state and the first action, estimated from counts.', why: 'An agent that acts the same whatever it sees has zero action MI: an input-agnostic policy even if its format is fine.', formula: 'I(S; A₁) = Σ p(s,a) log p(s,a) / (p(s) p(a))' },
  'eval/successRate': { what: 'Greedy (temperature-0) success on held-out start states the training never sees.', why: 'Separates learning the task from memorising training states; a fall of held-out success is an early warning.', formula: 'mean over held-out episodes of 1[goal reached], greedy decoding' },
  'eval/sampledSuccessRate': { what: 'Success on held-out start states when sampling at temperature 1.', why: 'Compares with the greedy figure: a large gap means the right action is likely but not dominant yet.' },
  'actor/optimizerSteps': { what: 'How many optimizer (Adam) steps the policy took this iteration.', why: 'Comparisons must match it: a variance filter that keeps 25% of a fixed batch takes 4× fewer steps, which looked like protection from the trap in the prototype.' },
  'actor/samplesPerStep': { what: 'Trajectories per optimizer step.', why: 'Fewer samples per step means noisier gradients; report it beside any comparison of algorithms.' },
  'time/rolloutMs': { what: 'Milliseconds spent sampling responses and stepping the environments this iteration.', why: 'Where time goes: rollouts grow with group count, group size, turns and tokens per turn.' },
  'time/updateMs': { what: 'Milliseconds spent scoring trajectories and updating the policy (and critic), as the clock on the wall saw them: with the critic in a worker of its own, its steps overlap the policy’s.', why: 'Grows with steps per iteration and sequence length; the other half of the iteration’s time.' },
  'time/scoringMs': { what: 'Milliseconds spent scoring the kept samples: the old and reference log-probabilities, the critic’s values and the advantages.', why: 'Part of the update time: it grows with the samples kept and their length, and with a critic to evaluate.' },
  'time/policyMs': { what: 'Milliseconds spent in the policy’s optimizer steps (forward, backward, Adam).', why: 'Usually the largest part of an iteration: steps per iteration × the rows each step trains on.' },
  'time/criticMs': { what: 'Milliseconds spent in the critic’s optimizer steps (0 for algorithms without a critic). When the status line says “2 workers”, the critic runs in a worker of its own, beside the policy’s steps: then policy and critic time together exceed the update time, and the gap is the time the second core saved.', why: 'PPO and StarPO-S pay for a value model as large as the policy; GRPO, Dr. GRPO, GSPO and DAPO do not.' },
  'time/criticWaitMs': { what: 'Milliseconds the update waited, after the policy’s last step, for the critic’s steps to end (0 without a critic). On one worker that is all of the critic’s steps; on two, only what they ran past the policy’s.', why: 'On two workers it is what letting the critic’s steps run on into the next rollout could save at most: near 0 when the critic keeps pace with the policy.' },
  'time/measureMs': { what: 'Milliseconds the iteration spent on the held-out evaluation and the reasoning-MI proxy (0 on iterations that measure neither).', why: 'They measure the policy that made the iteration’s rollouts, before its update; their cost shows as spikes every “evaluate every” iterations. On two workers a run without a critic takes them in its second worker, from a copy of those weights, while the update runs: the spike shrinks to the wait, if any, for their answer.' },
  'perf/tokensPerSec': { what: 'Generated tokens per second during rollouts.', why: 'A throughput figure for comparing backends (WebGPU, WASM, CPU) and model sizes.' },
  'perf/envStepsPerSec': { what: 'Environment steps per second of rollout time.', why: 'Shows whether the environments (in their workers) or the model limit the rollout speed.' },
  'memory/numTensors': { what: 'Live tfjs tensors after the iteration.', why: 'Must stay flat: a rising count is a memory leak that eventually stalls the tab.' },
  'memory/gpuBytes': { what: 'Bytes held by the tfjs backend (0 on CPU).', why: 'Should plateau after the first iterations; growth means leaked GPU buffers.' },
};

// biome-ignore format: one entry per row reads as a table
export const FIELD_TEXTS: Readonly<Record<string, Explanation>> = {
  env: { what: 'The text environment the agent plays: a MiniGrid room described in words, or a small WebShop.', why: 'The echo trap shows most clearly on tasks that do not saturate: on an easy room every rollout succeeds and reward variance vanishes by convergence, not collapse.' },
  algorithm: { what: `A preset of switches (sequence, advantage, filter, clip, KL), one of ${Object.keys(ALGORITHMS).length}: ${Object.values(ALGORITHMS).map((a) => a.label).join(', ')}. The one chosen is described below.`, why: 'The paper’s comparison: vanilla StarPO (GRPO collapses earliest) against StarPO-S (variance filter, critic, clip-higher, no KL); the 2026 variants (Dr. GRPO, GSPO, DAPO) each change one part of GRPO, so a run beside StarPO (GRPO) isolates it.' },
  modelSize: { what: 'The transformer’s width and depth: nano d64×2, micro d128×4, small d256×6.', why: 'Tiny models show the echo trap too, but only with a large step; bigger models need a GPU to train at a usable speed.' },
  seed: { what: 'The seed of every random choice: start states, sampling, initial weights of new heads, minibatch order.', why: 'Collapse is stochastic: compare algorithms on the same seeds, and over several seeds before concluding anything.' },
  iterations: { what: 'Planned rollout → update iterations.', why: 'The trap appears after an early peak, so a run must be long enough to pass it: the echo-trap preset runs 200, RAGEN’s horizon (its falls came at iterations 99–191), the Bandit, FrozenLake and Sokoban presets 80.' },
  backend: { what: 'Where the tensors run: WebGPU, WASM or CPU; auto picks by a timed probe.', why: 'Changes speed, not learning: the same seed on the same backend gives the same run (a different backend differs by float rounding).' },
  checkpointEvery: { what: 'Save the weights every k iterations (0: only at the end).', why: 'A checkpoint before the collapse can be reloaded as a base model to study what the policy was doing there.' },
  groups: { what: 'P: how many initial states are rolled out each iteration.', why: 'Groups are what the variance filter ranks and what GRPO normalises within; more groups give the filter more choice.', formula: 'batch = P × N trajectories' },
  groupSize: { what: 'N: rollouts from each initial state (they share the start seed).', why: 'In-group reward std is measured over these N rollouts; with N = 1 it is always zero.' },
  maxTurns: { what: 'Turns per trajectory before it is cut off.', why: 'More turns mean longer sequences and more chances to be penalised; the malformed floor is −(turns × penalty).' },
  maxActionsPerTurn: { what: 'Actions the agent may chain with || in one answer.', why: 'Chained actions make each turn count for more — and a repeated template chain does as much damage.' },
  maxActionsPerTraj: { what: 'The total action budget of a trajectory, shown to the agent as “actions left”.', why: 'Bounds episode length independently of the turn limit.' },
  maxTokensPerTurn: { what: 'The longest response the agent may write in one turn.', why: 'Thinking that runs into the limit never closes its tags and the turn is malformed.' },
  contextLength: { what: 'The longest token sequence the model reads; older turns are cut, visibly.', why: 'StarPO trains on the whole trajectory as one sequence, so context bounds how much history the policy sees.' },
  historyTurns: { what: 'Past turns kept in the prompt, the current one included.', why: 'With history, the agent can condition on what it did before; turn-level PPO keeps only the current turn.' },
  temperature: { what: 'The sampling temperature of training rollouts.', why: 'Lower temperature reduces in-group variance (rollouts agree more), which starves group-normalised advantages.', formula: 'p(v) ∝ exp(logit_v / T)' },
  formatPenalty: { what: 'The reward subtracted for each turn with a malformed or invalid answer.', why: 'Gives a gradient toward the format; a fully collapsed policy sits at the floor −turns × penalty.' },
  startPool: { what: 'How many fixed start states (goals, layouts) the training groups cycle through; 0 draws a fresh one for every group in every iteration.', why: 'With a small pool the same goals come back every iteration, so a rise in training success is the policy getting better at them and not a luckier draw of goals; it measures learning on those goals, not on new ones (held-out evaluation still uses its own seeds).' },
  groupStreams: { what: 'Whether the rollouts of one group share the environment’s random stream (payouts, slips, moving obstacles) or each draws its own.', why: 'RAGEN resets every rollout of a group with the same seed, so rollouts that act alike fare alike and the in-group reward std measures how much they disagree, not how lucky they were; independent streams add luck to it.' },
  rewardPlacement: { what: 'Where the reward enters the sequence: the trajectory’s sum on the last agent token (StarPO) or each turn’s reward at that turn’s end.', why: 'StarPO credits the whole trajectory at once; per-turn placement gives denser credit assignment.' },
  lossOnEnvTokens: { what: 'Whether the state and reward tokens written by the environment are included in the loss.', why: 'The paper’s runs trained on them too; off, only the agent’s own tokens are optimised.' },
  advantage: axisText('How advantages are computed', ESTIMATOR_VARIANTS, 'The estimator decides whether a critic trains and what a group with identical rewards teaches.', 'GRPO: Aᵢ = (Rᵢ − mean_g R) / (std_g R + 1e-6)'),
  normAdvByStd: { what: 'Whether GRPO divides each reward’s distance from its group’s mean by the group’s reward std (on), or leaves it as R − mean (off: Dr. GRPO).', why: 'Dividing by the std gives a group whose rewards barely differ as large an update as a clearly split one — Dr. GRPO argues this biases the update toward easy and hopeless start states, and drops it. RAGEN v2 exposes it as norm_adv_by_std_in_grpo.', formula: 'on: Aᵢ = (Rᵢ − mean_g R)/(std_g R + 1e-6);  off: Aᵢ = Rᵢ − mean_g R' },
  gamma: { what: 'The discount factor γ of returns and GAE.', why: 'RAGEN uses γ = 1: the sequence is short and every turn counts.', formula: 'δₜ = rₜ + γ V(sₜ₊₁) − V(sₜ)' },
  lambda: { what: 'The GAE trace parameter λ.', why: 'λ = 1 (RAGEN) gives Monte-Carlo advantages R − V: unbiased, and as noisy as the critic is wrong.', formula: 'Aₜ = Σₖ (γλ)ᵏ δₜ₊ₖ' },
  whiten: { what: 'Normalise the critic’s advantages over the batch to mean 0, std 1.', why: 'When every reward is equal, A = R − V is pure critic noise, and whitening would scale that noise up to full-size updates — so it is skipped when reward std ≈ 0.', formula: 'A ← (A − mean A) / (std A + ε)' },
  criticWarmup: { what: 'Iterations that train only the critic before the first policy update.', why: 'An untrained critic wrecked StarPO-S in its first iterations at a large lr in the prototype: warm-up gives it time to fit.' },
  thinkingCritic: { what: 'Weight advantages by σ(a rule-based score of the thinking’s quality) — a proposal this playground tests, not in RAGEN’s paper.', why: 'Aims to reward reasoning that refers to the state; an experiment, not an established fix.', formula: 'A ← A · σ(q(think))' },
  filterMode: axisText('Which groups the update trains on', FILTER_VARIANTS, 'Groups with zero reward variance carry no task gradient, only KL and entropy pressure, which erases input dependence.'),
  filterTopP: { what: 'The top-p filter’s share: groups are kept, highest reward variance first, until their summed variance reaches this share of the batch’s total (less 0.01).', why: 'RAGEN-2 recommends 0.9: it drops the groups that add little signal without a fixed count. 1 keeps every group that has any variance.', formula: 'keep the fewest top groups with Σ var ≥ p · Σ_all var − 0.01' },
  filterRatio: { what: 'The share of groups the filter keeps (paper: 0.25).', why: 'Lower keeps only the most uncertain groups — stronger signal per sample, fewer samples.' },
  filterOrder: { what: 'Keep the groups with the highest reward std (the paper) or the lowest (reverse ablation).', why: 'The reverse ablation shows whether the variance itself is what helps.' },
  outlierDrop: { what: 'Drop trajectories whose return is beyond 2σ of the batch mean (a proposal this playground tests, not in RAGEN’s paper).', why: 'Limits the pull of rare extreme returns; not part of the paper’s StarPO-S.' },
  clipLow: { what: 'ε_low: the probability ratio is clipped below at 1 − ε_low.', why: 'Limits how fast a token’s probability can fall in one update.', formula: 'clip(ρ, 1 − ε_low, 1 + ε_high)' },
  clipHigh: { what: 'ε_high: the probability ratio is clipped above at 1 + ε_high (clip-higher: 0.28).', why: 'A larger upper clip lets unlikely tokens grow, keeping exploration alive; RAGEN found it raises the peak and delays collapse.' },
  entropyCoef: { what: 'The coefficient of the entropy bonus in the loss (0.001 in both StarPO variants).', why: 'Keeps sampling diverse; but with zero-variance groups, this constant pressure acts without any task signal.', formula: 'L ← L − c_H · H' },
  klCoef: { what: 'The weight of the KL to the frozen reference policy (vanilla 0.001, StarPO-S 0).', why: 'Removing the KL raised the peak and delayed collapse in the paper; RAGEN-2 explains it: when task gradients vanish, the regulariser erases input dependence.', formula: 'L ← L + β · KL(π ‖ π_ref)' },
  klEstimator: { what: 'How KL is estimated from samples: k1 = log r or k3 = r − 1 − log r (Schulman), with r = π_ref/π.', why: 'k3 is non-negative and lower-variance; k1 is unbiased but noisy.' },
  klMode: { what: 'Whether the KL to the reference is subtracted per token from the reward or added to the loss.', why: 'RAGEN’s PPO runs put it in the reward (verl apply_kl_penalty), where the critic and advantages carry it; its GRPO runs put it in the loss. In the loss, k1 on fresh samples has zero expected gradient.' },
  lossAgg: axisText('How per-token losses become one number', LOSS_AGG_VARIANTS, 'RAGEN’s config uses token-mean.', 'token-mean: Σᵢₜ mᵢₜ ℓᵢₜ / Σᵢₜ mᵢₜ;  seq-mean: (1/B) Σᵢ (Σₜ mᵢₜ ℓᵢₜ / Σₜ mᵢₜ);  seq-sum: (1/B) Σᵢ Σₜ mᵢₜ ℓᵢₜ'),
  ratioLevel: axisText('Where the importance ratio π/π_old is taken', RATIO_LEVEL_VARIANTS, 'PPO and GRPO take one ratio per token.', 'sᵢ = exp((1/|yᵢ|) Σₜ log(π(yᵢₜ)/π_old(yᵢₜ)));  loss = −(1/B) Σᵢ min(sᵢ Aᵢ, clip(sᵢ, 1−ε_low, 1+ε_high) Aᵢ)'),
  policyLoss: axisText('The policy loss, the clipped surrogate or one of the two entropy-mechanism losses of Cui et al. (2025) as verl ships them', POLICY_LOSS_VARIANTS, 'Entropy fell first in this playground’s trapped runs; these losses target entropy collapse at its source. Round 13 tests whether that prevents the echo trap (docs/echo-trap-round13.md).', 'cov_t = (A_t − mean A)(log π_t − mean log π)'),
  clipCovRatio: { what: 'Clip-Cov: the share of a step’s tokens whose gradient it detaches, at least one (verl and the paper: 0.0002).', why: 'At this playground’s sizes a step has about a thousand loss tokens, so the default detaches one token a step.' },
  clipCovLow: { what: 'Clip-Cov: a token is a candidate only when its covariance lies above this bound (verl: 1).', why: 'Leaves ordinary tokens alone; only strongly covarying ones are candidates.' },
  clipCovHigh: { what: 'Clip-Cov: … and below this bound (verl: 5).', why: 'Excludes extreme outliers from the random choice.' },
  klCovRatio: { what: 'KL-Cov: the share of a step’s tokens, highest covariance first, that carry the KL penalty, at least one (the paper’s 7B recipe: 0.002).', why: 'At this playground’s sizes that is one or two tokens a step.' },
  klCovCoef: { what: 'KL-Cov: β, the weight of |log π − log π_old| on the selected tokens (verl ppo_kl_coef: 1).', why: 'Larger keeps the selected tokens’ probabilities closer to where the step began.', formula: 'L_t = −A_t·r_t + β·|log r_t| on selected tokens' },
  valueClip: { what: 'The range around the old values within which the critic’s new predictions are clipped in the value loss.', why: 'Keeps the critic from jumping; a poor critic turns into noisy advantages.' },
  dpoBeta: { what: 'β, the temperature of the DPO loss.', why: 'Larger β keeps the policy closer to the reference; smaller lets the preference move it further.', formula: 'L = −log σ(β [log π/π_ref (y_w) − log π/π_ref (y_l)])' },
  lr: { what: 'The Adam step size of the policy.', why: 'The strongest knob of the echo trap in tiny models. Measured on the DoorKey-5x5 nano base with GRPO over 200 iterations (4 Adam steps per iteration): at 6e-4 (the echo-trap preset, 4 groups of 16) success rose and then fell to zero in 7 of 8 fresh seeds; at 5e-4 neither tuning run was trapped, but both fell back most of the way from their peaks; at 7e-4 one of two tuning runs was trapped and the other held (docs/echo-trap-round11.md); at 3e-4, 2e-4 and 1e-4 all 4 tuning runs rose and held (round 13’s ladder, docs/echo-trap-round13.md). Over 60 iterations (8 × 4 rollouts, PPO), 1e-3 and above without a warm-up break the policy in the first iteration, and up to 7e-4 learned and mostly held (docs/echo-trap.md). Other envs differ: each preset’s reason gives its own measurement.', formula: 'θ ← θ − lr · m̂ / (sqrt(v̂) + ε)' },
  criticLr: { what: 'The Adam step size of the critic.', why: 'The critic must track the returns as the policy improves; too slow leaves stale, noisy advantages.' },
  adamEpsilon: { what: 'Adam’s ε in the denominator, passed explicitly because tfjs defaults differ by backend.', why: 'Keeps runs comparable across backends; too large damps every step.' },
  gradClip: { what: 'The global gradient-norm clip (0: off).', why: 'Bounds the damage of a gradient spike; the stabilised variant uses 0.5.', formula: 'g ← g · min(1, c / ‖g‖)' },
  epochs: { what: 'Passes over the kept batch per iteration.', why: 'More passes reuse the same samples: more movement per iteration, further off-policy.' },
  minibatch: { what: 'Trajectories per optimizer step.', why: 'Sets how many steps one epoch makes, and how noisy each step is.' },
  stepsPerIteration: { what: 'A fixed number of optimizer steps per iteration (0: epochs × minibatches).', why: 'Step-matched comparisons: StarPO and StarPO-S should take the same number of steps, or the difference is just step count.' },
  klEarlyStop: { what: 'Stop the iteration’s epochs when approx KL exceeds this (0: off).', why: 'A guard against one iteration moving the policy too far — the regime where collapse starts.' },
  lrWarmup: { what: 'The share of planned iterations over which the learning rate ramps up linearly.', why: 'Avoids large early steps while the advantages are still noisy.' },
  evalEvery: { what: 'Run a held-out evaluation every k iterations (0: off).', why: 'Held-out greedy success is one of the early warnings; evaluating costs rollouts.' },
  evalEpisodes: { what: 'Held-out start states per evaluation.', why: 'More episodes, less noisy eval curves.' },
  miEvery: { what: 'Compute the reasoning-MI proxy every k iterations (0: off).', why: 'The MI proxy is the signal that catches template collapse, but it teacher-forces every thinking under every prompt, so it is not computed every iteration.' },
  miSamples: { what: 'How many prompts are teacher-forced against each other for the MI proxy.', why: 'MI is at most log N and retrieval chance is 1/N: more samples, a finer (and costlier) measure.' },
};

/** What a person reads for each detector signal (its id stays in tables and files). */
export const SIGNAL_LABELS: Readonly<Record<string, string>> = {
  rewardStdDrop: 'Reward spread fell',
  entropyRise: 'Entropy jumped',
  entropyDrop: 'Entropy fell',
  gradNormSpike: 'Gradient-norm spike',
  actionMiDrop: 'Actions stopped depending on the state',
  thinkMiDrop: 'Reasoning stopped depending on the input',
  modalThinkRise: 'One thinking string took over',
  malformedRise: 'Malformed turns rose',
  heldOutDrop: 'Held-out success fell',
  successCollapse: 'Echo trap: rose, then fell back',
  successRecovery: 'Recovered after a collapse',
};

/** A signal's plain name; its id when it has none. */
export function signalLabel(signal: string): string {
  return Object.hasOwn(SIGNAL_LABELS, signal) ? (SIGNAL_LABELS[signal] as string) : signal;
}

// biome-ignore format: one entry per row reads as a table
export const SIGNAL_TEXTS: Readonly<Record<string, Explanation>> = {
  rewardStdDrop: { what: 'Context: the smoothed in-group reward std fell to a tenth of its start.', why: 'RAGEN’s first sign — rollouts from one state became near-identical, so GRPO advantages vanish. If success is high at the same time it is convergence, not a trap (the detector says so).', formula: 'fires when std ≤ 0.1 · baseline' },
  entropyRise: { what: 'Context: entropy rose 50% above its low point.', why: 'RAGEN saw entropy jump as GRPO collapsed: the policy becomes erratic rather than confident.', formula: 'fires when H ≥ 1.5 · trough and H − trough > 0.1' },
  entropyDrop: { what: 'Context: entropy fell to a fifth of its start.', why: 'Sampling became nearly deterministic: fewer distinct rollouts, less variance to learn from. Also happens when a run converges.', formula: 'fires when H ≤ 0.2 · baseline' },
  gradNormSpike: { what: 'Context: the gradient norm jumped to 5× its recent median.', why: 'RAGEN’s confirmation of collapse; in tiny models it came earliest but also fired in healthy runs, so it is shown as context, not a warning.', formula: 'fires when ‖g‖ > 5 · median(previous ‖g‖)' },
  actionMiDrop: { what: 'Context, not a warning: the MI between start state and first action fell to half its peak.', why: 'An agent that acts the same whatever it sees is input-agnostic, the heart of the echo trap — but with a few dozen rollouts this MI is noisy: it fired in 11 of 16 frozen-control runs, where the policy never changes (docs/echo-trap.md), so read it beside success.', formula: 'fires when I(S;A₁) ≤ 0.5 · peak' },
  thinkMiDrop: { what: 'Warning: the reasoning-MI proxy fell to half its peak.', why: 'The thinking no longer depends on the input: template collapse, which entropy cannot see.', formula: 'fires when MI ≤ 0.5 · peak' },
  modalThinkRise: { what: 'Warning: at least half of all turns (and 30 points more than at the start) share one identical thinking string.', why: 'The reasoning became a template: the same thinking whatever the agent sees (the reasoning panel shows the string). RAGEN saw the same in its Bandit, one sentence for every input.', formula: 'fires when share ≥ max(0.5, baseline + 0.3)' },
  malformedRise: { what: 'Warning: at least a quarter of turns (and 20 points more than at the start) are malformed or invalid.', why: 'Collapsed runs in the prototype ended with every turn malformed — the reward floor.', formula: 'fires when rate ≥ max(0.25, baseline + 0.2)' },
  heldOutDrop: { what: 'Warning: greedy success on held-out start states fell to 70% of its peak.', why: 'A policy that memorises a template generalises worse. Greedy success on fixed held-out seeds cannot move on a frozen policy, so this warning is not calibratable from a frozen control: its false-alarm rate is unknown.', formula: 'fires when eval success ≤ 0.7 · peak (peak ≥ 0.2)' },
  successCollapse: { what: 'The echo trap itself: success on the paired groups rose above the run’s own start (iterations 0–4) to a 5-iteration peak, and then fell back over 10 iterations to at or below that start; the rise and the fall each exceed 3 standard errors.', why: 'The definition the run summary, sweep tables and seed groups use, written down before any search looked at results (docs/echo-trap.md). A group’s rollouts share a start state, so the noise bound counts groups, not rollouts: 8 layouts of very different difficulty do not read as a rise and a fall. A learner that gives back part of its gain but stays above its start is not trapped.', formula: 'peak − start > 3·SE and peak − last10 > 3·SE and last10 ≤ start; SE² of a window = mean(s²ₜ) / (iterations × P), sₜ the between-group std' },
  successRecovery: { what: 'The collapse rule held at some iteration, but the run’s last 10 iterations are above its start again.', why: 'Some runs climb back; such a run is reported as recovered, not trapped, because the verdict is read at the end.', formula: 'rule held earlier, and mean(last 10) > start at the end' },
};

const TABLES: Record<ExplainKind, Readonly<Record<string, Explanation>>> = {
  metric: METRIC_TEXTS,
  field: FIELD_TEXTS,
  signal: SIGNAL_TEXTS,
};

/** The explanation of a metric key, config key or detector signal; null when there is none. */
export function explain(kind: ExplainKind, key: string): Explanation | null {
  return Object.hasOwn(TABLES[kind], key) ? (TABLES[kind][key] as Explanation) : null;
}
