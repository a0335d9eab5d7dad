// Trajectory samples when rollouts cut the history: windows of `historyTurns` turns, each
// response trained once, the last of each window in exactly the prompt it was sampled from,
// and the trajectory's return on every window's last agent token.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import { createPolicy, disposeModel, type Model } from '../model/params.js';
import { Rng } from '../rng.js';
import { applyAlgorithm } from './algorithms.js';
import { trainingSamples, trajectorySamples, turnSamples, turnWindows } from './batch.js';
import { type EnvLike, InProcessEnvPool } from './envPool.js';
import { rollout, type Trajectory } from './rollout.js';
import { sideEnvTokenizer } from './sideEnv.fixture.js';

/** Never ends by itself: the turn limit cuts every trajectory at `maxTurns`. */
class EndlessSideEnv implements EnvLike {
  reset(): string {
    return 'the goal is left';
  }
  step(action: string) {
    const valid = action.trim() === 'go left';
    return {
      observation: 'the goal is right',
      reward: valid ? 0.5 : 0,
      done: false,
      info: { success: false, actionIsValid: valid, actionIsEffective: valid },
    };
  }
  instruction(): string {
    return 'pick the side of the goal';
  }
}

const tok = sideEnvTokenizer();
let trajs: Trajectory[] = [];

beforeAll(async () => {
  await tf.setBackend('cpu');
  const config = { vocabSize: tok.size, dModel: 16, nLayers: 1, nHeads: 2, context: 256, mlpRatio: 2 };
  const policy: Model = createPolicy(config, new Rng(5));
  const settings = {
    maxTurns: 3,
    maxActionsPerTurn: 1,
    maxActionsPerTraj: 10,
    maxTokensPerTurn: 6,
    contextLength: 256,
    historyTurns: 1,
    temperature: 1,
    formatPenalty: 0.1,
  };
  const starts = [0, 1].map((g) => ({ group: g, seed: g }));
  const r = await rollout(
    policy,
    tok,
    new InProcessEnvPool(() => new EndlessSideEnv()),
    starts,
    settings,
    new Rng(9),
  );
  trajs = r.trajectories;
  disposeModel(policy);
});

const opts = { contextLength: 256, lossOnEnvTokens: false, rewardPlacement: 'last-token' as const };
const ones = (m: Float32Array) => m.reduce((a, b) => a + b, 0);

describe('turnWindows', () => {
  it('covers every turn once, each window ending h−1, 2h−1, … and the last turn', () => {
    expect(turnWindows(3, 1)).toEqual([
      { from: 0, end: 0 },
      { from: 1, end: 1 },
      { from: 2, end: 2 },
    ]);
    expect(turnWindows(5, 2)).toEqual([
      { from: 0, end: 1 },
      { from: 2, end: 3 },
      { from: 4, end: 4 },
    ]);
    expect(turnWindows(3, 5)).toEqual([{ from: 0, end: 2 }]);
  });
});

describe('trajectorySamples with history cut', () => {
  it('history 1: one sample per turn, trained exactly in the prompt the response was sampled from', () => {
    expect(trajs).toHaveLength(2);
    const samples = trajectorySamples(tok, trajs, { ...opts, historyTurns: 1 });
    expect(samples).toHaveLength(6);
    samples.forEach((s, i) => {
      const traj = trajs[Math.floor(i / 3)] as Trajectory;
      const turn = traj.turns[i % 3]!;
      expect(turn.responseIds.length).toBeGreaterThan(0);
      // The sequence starts with the rollout's prompt, then the sampled response.
      expect(s.ids.slice(0, turn.promptIds.length)).toEqual(turn.promptIds);
      expect(s.ids.slice(turn.promptIds.length, turn.promptIds.length + turn.responseIds.length)).toEqual(
        turn.responseIds,
      );
      // Trained: exactly the response tokens; the return on the last of them.
      expect(ones(s.lossMask)).toBe(turn.responseIds.length);
      const lastTrained = s.lossMask.lastIndexOf(1);
      expect(s.rewards[lastTrained]).toBeCloseTo(traj.reward, 6);
      expect(ones(s.rewards.map((r) => (r !== 0 ? 1 : 0)))).toBeLessThanOrEqual(1);
      expect(s.traj).toBe(Math.floor(i / 3));
    });
  });

  it('history 2 of 3 turns: two windows, the second trains only the third response', () => {
    const samples = trajectorySamples(tok, trajs.slice(0, 1), { ...opts, historyTurns: 2 });
    const t = trajs[0]!.turns;
    expect(samples).toHaveLength(2);
    expect(ones(samples[0]!.lossMask)).toBe(t[0]!.responseIds.length + t[1]!.responseIds.length);
    expect(ones(samples[1]!.lossMask)).toBe(t[2]!.responseIds.length);
  });

  it('never ends a sequence with the final turn’s reward (RAGEN drops it for the update)', () => {
    const rewardId = tok.special['<reward>'];
    for (const h of [1, 2, 3]) {
      const samples = trajectorySamples(tok, trajs, { ...opts, historyTurns: h, lossOnEnvTokens: true });
      for (const s of samples.filter(
        (_, i) => i === samples.length - 1 || samples[i + 1]!.traj !== samples[i]!.traj,
      )) {
        const traj = trajs[s.traj]!;
        const lastResponse = traj.turns[traj.turns.length - 1]!.responseIds;
        expect(s.ids.slice(-lastResponse.length), `history ${h}`).toEqual(lastResponse);
        // Trained in paper mode (env tokens too) — but there is no trailing reward to train on.
        expect(s.lossMask[s.lossMask.length - 1]).toBe(1);
      }
      // Earlier turns' rewards stay: the rollout showed them to later turns.
      if (h === 3) expect(samples[0]!.ids.filter((id) => id === rewardId)).toHaveLength(2);
    }
    for (const s of turnSamples(tok, trajs, opts)) {
      const turn = trajs[s.traj]!.turns[s.turn]!;
      expect(s.ids.slice(-turn.responseIds.length)).toEqual(turn.responseIds);
      expect(s.ids).not.toContain(rewardId);
    }
  });

  it('gives DPO the same windows as StarPO: responses scored in the context they were sampled in', () => {
    const base = { ...defaultConfig(), ...opts, historyTurns: 1 };
    const dpo = trainingSamples(tok, trajs, { ...applyAlgorithm(base, 'dpo-online'), historyTurns: 1 });
    expect(dpo).toEqual(trainingSamples(tok, trajs, applyAlgorithm(base, 'starpo-ppo')));
    expect(dpo).toHaveLength(6);
  });

  it('history covering every turn: one sequence per trajectory, every response trained', () => {
    const all = trajectorySamples(tok, trajs, opts);
    const full = trajectorySamples(tok, trajs, { ...opts, historyTurns: 3 });
    expect(full).toEqual(all);
    expect(all).toHaveLength(2);
    for (const [k, s] of all.entries())
      expect(ones(s.lossMask)).toBe(trajs[k]!.turns.reduce((a, t) => a + t.responseIds.length, 0));
  });
});
