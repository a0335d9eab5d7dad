// From trajectories to training samples. StarPO trains on each trajectory as ONE sequence
// (instruction, every turn's state, response and reward); `ppo-turn` makes one sample per turn
// with no history. Arrays are in *target coordinates*: index t refers to token t+1, the token
// predicted from position t — the layout of policyLogProbs' [B, T−1] output.
import { buildSequence } from '../prompt.js';
import type { Tokenizer } from '../tokenizer.js';
import { promptTurns, type Trajectory } from './rollout.js';

export interface Sample {
  /** Index of the trajectory in the iteration's kept list. */
  traj: number;
  group: number;
  /** 0-based turn for per-turn samples; −1 for whole-trajectory samples. */
  turn: number;
  ids: number[];
  /** [n−1] 1 where token t+1 is trained on. */
  lossMask: Float32Array;
  /** [n−1] 1 where token t+1 is an agent token. */
  agentMask: Float32Array;
  /** [n−1] token rewards (the trajectory or turn reward on its last agent token). */
  rewards: Float32Array;
  /** The sample's scalar reward (trajectory reward, or the turn's for per-turn samples). */
  reward: number;
  /** Target index of the value of the state before the response (per-turn samples). */
  stateIndex: number;
}

export interface SampleOptions {
  contextLength: number;
  lossOnEnvTokens: boolean;
  /** 'last-token': Σ rewards on the last agent token; 'per-turn': each turn's on its own end. */
  rewardPlacement: 'last-token' | 'per-turn';
}

function shift(mask: Uint8Array): Float32Array {
  const out = new Float32Array(Math.max(0, mask.length - 1));
  for (let t = 0; t + 1 < mask.length; t++) out[t] = mask[t + 1] as number;
  return out;
}

/** One sample per trajectory: the whole interaction as one sequence. */
export function trajectorySamples(tok: Tokenizer, trajs: readonly Trajectory[], o: SampleOptions): Sample[] {
  return trajs.map((traj, k) => {
    const seq = buildSequence(tok, traj.instruction, promptTurns(traj), {
      historyTurns: Math.max(1, traj.turns.length),
      maxTokens: o.contextLength,
      lossOnEnvTokens: o.lossOnEnvTokens,
    });
    const lossMask = shift(seq.lossMask);
    const agentMask = shift(seq.agentMask);
    const rewards = new Float32Array(lossMask.length);
    if (o.rewardPlacement === 'per-turn') {
      for (const span of seq.turns) {
        const r = traj.turns[span.turn - 1]?.reward ?? 0;
        if (span.responseEnd > span.responseStart) rewards[span.responseEnd - 2] = r;
      }
    } else {
      let last = -1;
      for (let t = agentMask.length - 1; t >= 0; t--) {
        if (agentMask[t] === 1) {
          last = t;
          break;
        }
      }
      if (last >= 0) rewards[last] = traj.reward;
    }
    return {
      traj: k,
      group: traj.group,
      turn: -1,
      ids: seq.ids,
      lossMask,
      agentMask,
      rewards,
      reward: traj.reward,
      stateIndex: -1,
    };
  });
}

/** One sample per turn, each with only its own state (the `ppo-turn` baseline). */
export function turnSamples(tok: Tokenizer, trajs: readonly Trajectory[], o: SampleOptions): Sample[] {
  const out: Sample[] = [];
  trajs.forEach((traj, k) => {
    const all = promptTurns(traj);
    traj.turns.forEach((turn, j) => {
      const seq = buildSequence(tok, traj.instruction, all.slice(0, j + 1), {
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
      });
    });
  });
  return out;
}
