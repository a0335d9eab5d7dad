// Old log-probs from the sampler (issue 22): on WASM (where the decode step takes the
// multiply-and-sum attention), multi-turn rollouts at T 0.7 cut into windows of 2 turns. A window
// whose responses were all sampled in its exact context carries the sampler's log-probs, equal
// to the scorer's at the rollout temperature to 1e-5; a window with a response sampled in a
// longer history, or with env tokens in the loss, carries none and is scored. scoreSamples (the
// sampler's log-probs where recorded, the three models in one pass per length group) gives the
// scores of each model scored on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { createCritic, createPolicy, disposeModel, type Model } from '../model/params.js';
import { predictValues, scoreSequences } from '../model/scoring.js';
import { Rng } from '../rng.js';
import { trajectorySamples } from './batch.js';
import type { EnvLike } from './envPool.js';
import { InProcessEnvPool } from './envPool.js';
import { scoreSamples } from './prepare.js';
import { rollout, type Trajectory } from './rollout.js';
import { sideEnvTokenizer } from './sideEnv.fixture.js';

/** Four turns whatever the agent says (an unusable answer still costs a turn). */
class LongEnv implements EnvLike {
  private n = 0;
  reset(): string {
    this.n = 0;
    return 'the goal is left';
  }
  step() {
    this.n++;
    return {
      observation: `the goal is ${this.n % 2 ? 'right' : 'left'}`,
      reward: 0,
      done: this.n >= 4,
      info: { success: false, actionIsValid: true, actionIsEffective: true },
    };
  }
  instruction(): string {
    return 'pick the side of the goal';
  }
}

const tok = sideEnvTokenizer();
const T = 0.7;
const mc = { vocabSize: tok.size, dModel: 16, nLayers: 1, nHeads: 2, context: 256, mlpRatio: 2 };
const opts = {
  contextLength: 256,
  lossOnEnvTokens: false,
  rewardPlacement: 'last-token' as const,
  historyTurns: 2,
};
let policy: Model;
let reference: Model;
let critic: Model;
let trajs: Trajectory[];

beforeAll(async () => {
  await setupNodeBackend('wasm');
  policy = createPolicy(mc, new Rng(3));
  reference = createPolicy(mc, new Rng(5));
  critic = createCritic(mc, new Rng(4));
  const starts = [0, 0, 1, 1].map((seed, i) => ({ group: Math.floor(i / 2), seed }));
  const settings = {
    maxTurns: 4,
    maxActionsPerTurn: 1,
    maxActionsPerTraj: 4,
    maxTokensPerTurn: 6,
    contextLength: 256,
    historyTurns: 2,
    temperature: T,
    formatPenalty: 0.1,
  };
  trajs = (
    await rollout(policy, tok, new InProcessEnvPool(() => new LongEnv()), starts, settings, new Rng(9))
  ).trajectories;
});
afterAll(() => {
  for (const m of [policy, reference, critic]) disposeModel(m);
});

describe('old log-probs from the sampler', () => {
  it('covers the windows sampled in their own context, equal to the scorer at T (1e-5)', async () => {
    expect(trajs.every((t) => t.turns.length === 4)).toBe(true);
    const samples = trajectorySamples(tok, trajs, opts);
    // Windows of turns 1–2 (sampled as they stand) and 3–4 (turn 3 was sampled after turn 2).
    expect(samples).toHaveLength(2 * trajs.length);
    const covered = samples.filter((s) => s.sampledLogp);
    expect(covered).toHaveLength(trajs.length);
    const scored = await scoreSequences(
      policy,
      covered.map((s) => s.ids),
      { temperature: T },
    );
    let compared = 0;
    covered.forEach((s, i) => {
      s.lossMask.forEach((m, t) => {
        if (m !== 1) return;
        expect(Math.abs((s.sampledLogp?.[t] as number) - (scored.logps[i]?.[t] as number))).toBeLessThan(
          1e-5,
        );
        compared++;
      });
    });
    expect(compared).toBeGreaterThan(30);
  });

  it('has none when env tokens are in the loss', () => {
    const samples = trajectorySamples(tok, trajs, { ...opts, lossOnEnvTokens: true });
    expect(samples.every((s) => s.sampledLogp === null)).toBe(true);
  });

  it('scoreSamples: the scores of each model scored on its own', async () => {
    const samples = trajectorySamples(tok, trajs, opts);
    expect(samples.some((s) => s.sampledLogp !== null)).toBe(true);
    const rows = samples.map((s) => s.ids);
    const before = {
      oldLogp: (await scoreSequences(policy, rows, { temperature: T })).logps,
      refLogp: (await scoreSequences(reference, rows, { temperature: T })).logps,
      values: (await predictValues(critic, rows)).map((v) => v.slice(0, v.length - 1)),
    };
    const after = await scoreSamples(samples, policy, reference, critic, T, { sampled: true });
    let worstOld = 0;
    let worstRest = 0;
    samples.forEach((s, i) => {
      // Only the loss mask's log-probs are read, so only those are scored (0 elsewhere).
      s.lossMask.forEach((m, t) => {
        if (m === 1) {
          worstOld = Math.max(worstOld, Math.abs(before.oldLogp[i]![t]! - after.oldLogp[i]![t]!));
          worstRest = Math.max(worstRest, Math.abs(before.refLogp[i]![t]! - after.refLogp[i]![t]!));
        } else expect(after.refLogp[i]![t]).toBe(0);
      });
      before.values[i]!.forEach((x, t) => {
        worstRest = Math.max(worstRest, Math.abs(x - after.values[i]![t]!));
      });
      expect(after.oldLogp[i]).toHaveLength(s.ids.length - 1);
      expect(after.values[i]).toHaveLength(s.ids.length - 1);
    });
    expect(worstOld).toBeLessThan(1e-5);
    expect(worstRest).toBeLessThan(1e-5);
  });
});
