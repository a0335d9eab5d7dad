// From trajectories to training samples. StarPO trains on each trajectory as ONE sequence
// (instruction, every turn's state, response and reward) — when the prompt kept every turn.
// When rollouts cut the history to `historyTurns` < turns, one sequence would train each
// response in a context the policy never acted in (all earlier turns visible), so the
// trajectory is cut into windows of `historyTurns` turns, each response trained once, the last
// of each window exactly in its rollout context; the later turns' rewards sit on each window's
// last agent token, so with γ = λ = 1 (RAGEN's) every token's return is the trajectory's.
// `ppo-turn` makes one sample per turn with no history. A sequence never ends with the final
// turn's "reward: r": no prompt ever showed it, and RAGEN drops it when preparing the update
// (ctx_manager get_lm_inputs, prepare_for_update). Arrays are in *target coordinates*: index t
// refers to token t+1, the token predicted from position t — the layout of policyLogProbs'
// [B, T−1] output.
import type { Config } from '../config.js';
import { buildSequence, type PromptTurn } from '../prompt.js';
import type { Tokenizer } from '../tokenizer.js';
import { estimatorOf } from '../variants/estimators.js';
import { promptTurns, type Trajectory } from './rollout.js';
import { sampledOldLogp } from './sampledLogp.js';
import type { Sample } from './samples.js';

export interface SampleOptions {
  contextLength: number;
  lossOnEnvTokens: boolean;
  /** 'last-token': Σ rewards on the last agent token; 'per-turn': each turn's on its own end. */
  rewardPlacement: 'last-token' | 'per-turn';
  /**
   * Turns the rollout prompt kept; longer trajectories are cut into windows of this many turns.
   * Absent: one sequence per trajectory whatever its length.
   */
  historyTurns?: number;
}

/** Windows over n turns of h: [from, end] with responses from..end trained, ends h−1, 2h−1, …, n−1. */
export function turnWindows(n: number, h: number): { from: number; end: number }[] {
  const out: { from: number; end: number }[] = [];
  for (let from = 0; from < n; ) {
    const end = Math.min(from + h - 1, n - 1);
    out.push({ from, end });
    from = end + 1;
  }
  return out;
}

/** The trajectory's turns for the prompt builder, the last turn's reward left out. */
function trainingTurns(traj: Trajectory): PromptTurn[] {
  const all = promptTurns(traj);
  const last = all.length - 1;
  if (last >= 0) all[last] = { ...(all[last] as PromptTurn), reward: undefined };
  return all;
}

function shift(mask: Uint8Array): Float32Array {
  const out = new Float32Array(Math.max(0, mask.length - 1));
  for (let t = 0; t + 1 < mask.length; t++) out[t] = mask[t + 1] as number;
  return out;
}

/** Training samples of each trajectory: one sequence, or one per window of `historyTurns` turns. */
export function trajectorySamples(tok: Tokenizer, trajs: readonly Trajectory[], o: SampleOptions): Sample[] {
  const out: Sample[] = [];
  trajs.forEach((traj, k) => {
    const all = trainingTurns(traj);
    const n = traj.turns.length;
    const h = Math.max(1, Math.min(o.historyTurns ?? n, n));
    for (const w of turnWindows(n, h)) {
      const seq = buildSequence(tok, traj.instruction, all.slice(0, w.end + 1), {
        historyTurns: h,
        maxTokens: o.contextLength,
        lossOnEnvTokens: o.lossOnEnvTokens,
      });
      const lossMask = shift(seq.lossMask);
      const agentMask = shift(seq.agentMask);
      // Responses before `from` were trained in an earlier window: context only here.
      const firstSpan = seq.turns.find((span) => span.turn - 1 >= w.from);
      const trainFrom = firstSpan ? firstSpan.start - 1 : 0;
      for (let t = 0; t < Math.min(trainFrom, lossMask.length); t++) lossMask[t] = 0;
      const rewards = new Float32Array(lossMask.length);
      let last = -1;
      for (let t = agentMask.length - 1; t >= 0; t--) {
        if (agentMask[t] === 1) {
          last = t;
          break;
        }
      }
      const later = traj.turns.slice(w.end + 1).reduce((a, t) => a + t.reward, 0);
      if (o.rewardPlacement === 'per-turn') {
        for (const span of seq.turns) {
          if (span.turn - 1 < w.from) continue;
          const r = traj.turns[span.turn - 1]?.reward ?? 0;
          if (span.responseEnd > span.responseStart) rewards[span.responseEnd - 2] = r;
        }
        if (last >= 0) rewards[last] = (rewards[last] as number) + later;
      } else if (last >= 0) {
        rewards[last] = traj.reward; // the whole return: every window's tokens see it
      }
      out.push({
        traj: k,
        group: traj.group,
        turn: -1,
        ids: seq.ids,
        lossMask,
        agentMask,
        rewards,
        reward: traj.reward,
        stateIndex: -1,
        sampledLogp: sampledOldLogp(seq.ids, seq.turns, traj, lossMask),
      });
    }
  });
  return out;
}

/** One sample per turn, each with only its own state (the `ppo-turn` baseline). */
export function turnSamples(tok: Tokenizer, trajs: readonly Trajectory[], o: SampleOptions): Sample[] {
  const out: Sample[] = [];
  trajs.forEach((traj, k) => {
    const all = promptTurns(traj);
    traj.turns.forEach((turn, j) => {
      // The turn's own reward would end the sequence; no later prompt (history 1) shows it.
      const own = { ...(all[j] as PromptTurn), reward: undefined };
      const seq = buildSequence(tok, traj.instruction, [...all.slice(0, j), own], {
        historyTurns: 1,
        maxTokens: o.contextLength,
        lossOnEnvTokens: o.lossOnEnvTokens,
      });
      const span = seq.turns[seq.turns.length - 1];
      if (!span) return;
      const lossMask = shift(seq.lossMask);
      const agentMask = shift(seq.agentMask);
      const rewards = new Float32Array(lossMask.length);
      if (span.responseEnd > span.responseStart) rewards[span.responseEnd - 2] = turn.reward;
      out.push({
        traj: k,
        group: traj.group,
        turn: j,
        ids: seq.ids,
        lossMask,
        agentMask,
        rewards,
        reward: turn.reward,
        stateIndex: span.responseStart - 1,
        sampledLogp: sampledOldLogp(seq.ids, seq.turns, traj, lossMask),
      });
    });
  });
  return out;
}

/**
 * The training samples of an iteration's kept trajectories under `config`: one per turn for
 * turn-level GAE (`ppo-turn`), else trajectory windows of the `historyTurns` the rollout
 * prompts kept — for every algorithm, DPO included, so each response is scored in the context
 * it was sampled in.
 */
export function trainingSamples(
  tok: Tokenizer,
  trajs: readonly Trajectory[],
  config: Pick<
    Config,
    'advantage' | 'contextLength' | 'lossOnEnvTokens' | 'rewardPlacement' | 'historyTurns'
  >,
): Sample[] {
  const o: SampleOptions = {
    contextLength: config.contextLength,
    lossOnEnvTokens: config.lossOnEnvTokens,
    rewardPlacement: config.rewardPlacement,
    historyTurns: config.historyTurns,
  };
  return estimatorOf(config).samples === 'turn'
    ? turnSamples(tok, trajs, o)
    : trajectorySamples(tok, trajs, o);
}
