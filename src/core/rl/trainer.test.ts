// The trainer end to end on a toy one-turn task (core tests do not import envs/): every
// algorithm runs, reports the metric keys, keeps the tensor count flat, and is
// deterministic for a seed. Learning on real environments is tested with the CLI.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import type { Config } from '../config.js';
import { ALGORITHM_NAMES } from '../config.js';
import { isClockKey, type MetricRow, rowWithout } from '../metrics/keys.js';
import { miFromMatrix } from '../metrics/mi.js';
import { createPolicy, disposeModel } from '../model/params.js';
import { parseResponse } from '../parse.js';
import { Rng } from '../rng.js';
import { DYNAMIC_BATCHES } from '../variants/filters.js';
import { InProcessEnvPool } from './envPool.js';
import { type FilterArm, filterArmOf, filterArmOverrides } from './filterArms.js';
import { SideEnv, sideEnvTokenizer } from './sideEnv.fixture.js';
import { runTiny, tinyConfig } from './tinyRun.fixture.js';
import { startSeedOf, Trainer, warmupLearningRate } from './trainer.js';

const tok = sideEnvTokenizer();

/**
 * Runs `config` (no eval; no MI unless `withSamples`, which also takes samples as the page does)
 * and records the seeds and instances of every training reset.
 */
async function recordedResets(
  config: Config,
  withSamples = false,
): Promise<{ seeds: number[]; instances: number[] }[]> {
  const calls: { seeds: number[]; instances: number[] }[] = [];
  const inner = new InProcessEnvPool(() => new SideEnv());
  const pool = {
    get stepsTaken() {
      return inner.stepsTaken;
    },
    reset: (seeds: readonly number[], instances?: readonly number[]) => {
      calls.push({ seeds: [...seeds], instances: [...(instances ?? [])] });
      return inner.reset(seeds, instances);
    },
    step: (batch: Parameters<InProcessEnvPool['step']>[0]) => inner.step(batch),
  };
  const mc = { vocabSize: tok.size, dModel: 16, nLayers: 1, nHeads: 2, context: 128, mlpRatio: 2 };
  const policy = createPolicy(mc, new Rng(1));
  const trainer = new Trainer({
    config: { ...config, evalEvery: 0, miEvery: withSamples ? config.miEvery : 0 },
    tokenizer: tok,
    policy,
    critic: null,
    pool,
    evalPool: new InProcessEnvPool(() => new SideEnv()),
    ...(withSamples ? { callbacks: { onSample: () => {} } } : {}),
  });
  for (let i = 0; i < config.iterations; i++) await trainer.step();
  trainer.dispose();
  disposeModel(policy);
  return calls;
}

// WASM, as the CLI trains: ~10× faster than tfjs's CPU backend on these shapes.
beforeAll(async () => {
  await setupNodeBackend('wasm');
});

describe('Trainer', () => {
  it.each([...ALGORITHM_NAMES])(
    '%s runs, reports its metrics and keeps the tensor count flat',
    async (algo) => {
      const before = tf.memory().numTensors;
      const { rows, tensors } = await runTiny(tinyConfig(algo, { criticWarmup: 0 }));
      expect(rows).toHaveLength(3);
      const r = rows[0]!;
      for (const k of [
        'rollout/successRate',
        'rollout/inGroupRewardStd',
        'rollout/malformedRate',
        'reasoning/modalThinkShare',
        'reasoning/mi',
        'eval/successRate',
        'actor/optimizerSteps',
        'actor/samplesPerStep',
        'rollout/zeroStdShare',
        'reasoning/miPrompts',
        'memory/numTensors',
      ] as const) {
        expect(r[k], k).toBeTypeOf('number');
        expect(Number.isFinite(r[k]), k).toBe(true);
      }
      // The learner's keys in every iteration that kept a group; the untrained policy's rewards here
      // are all equal, so DAPO's dynamic sampling and RAGEN-2's top-p keep no group and skip it.
      for (const row of rows) {
        if (row['rollout/filterKeptRatio'] === 0) expect(algo).toBe('starpo-dapo');
        else expect(row['actor/klRef'], 'actor/klRef').toBeTypeOf('number');
      }
      // SideEnv has two prompts ("the goal is left/right"): the MI proxy never repeats one.
      expect(r['reasoning/miPrompts']).toBeLessThanOrEqual(2);
      expect(tensors[2]).toBe(tensors[1]);
      expect(tf.memory().numTensors).toBe(before);
    },
  );

  it('is deterministic for a seed', async () => {
    const strip = (rows: MetricRow[]) => rows.map((r) => rowWithout(r, isClockKey));
    const a = await runTiny(tinyConfig('starpo-ppo'));
    const b = await runTiny(tinyConfig('starpo-ppo'));
    expect(strip(b.rows)).toEqual(strip(a.rows));
    const c = await runTiny(tinyConfig('starpo-ppo', { seed: 2 }));
    expect(strip(c.rows)).not.toEqual(strip(a.rows));
  });

  it('step-matches: a fixed number of optimizer steps whatever the kept batch', async () => {
    const unfiltered = await runTiny(tinyConfig('starpo-ppo', { stepsPerIteration: 2, groups: 4 }));
    const filtered = await runTiny(
      tinyConfig('starpo-s', { stepsPerIteration: 2, groups: 4, criticWarmup: 0 }),
    );
    expect(unfiltered.rows[0]!['actor/optimizerSteps']).toBe(2);
    expect(filtered.rows[0]!['actor/optimizerSteps']).toBe(2);
    expect(unfiltered.rows[0]!['actor/samplesPerStep']).toBe(8);
    expect(filtered.rows[0]!['actor/samplesPerStep']).toBe(2);
    expect(filtered.rows[0]!['rollout/filterKeptRatio']).toBe(0.25);
  });

  it('runs the three StarPO-S arms with RAGEN’s proportions (8 groups, keep 2, one step vs 4)', async () => {
    const budget = { groups: 8, groupSize: 2, minibatch: 4, iterations: 1, evalEvery: 0, miEvery: 0 };
    const vanilla = tinyConfig('starpo-ppo', budget);
    const first = async (c: Config) => (await runTiny(c)).rows[0]!;
    const v = await first(vanilla);
    expect([v['actor/optimizerSteps'], v['actor/samplesPerStep']]).toEqual([4, 4]);
    const arms: [FilterArm, number, number, number][] = [
      ['paper', 1, 4, 0.25],
      ['steps-matched', 4, 1, 0.25],
      ['samples-matched', 4, 4, 0.25],
    ];
    for (const [arm, steps, perStep, kept] of arms) {
      const c = tinyConfig('starpo-s', { ...budget, criticWarmup: 0, ...filterArmOverrides(arm, vanilla) });
      expect(filterArmOf(c)).toBe(arm);
      const r = await first(c);
      expect(
        [r['actor/optimizerSteps'], r['actor/samplesPerStep'], r['rollout/filterKeptRatio']],
        arm,
      ).toEqual([steps, perStep, kept]);
    }
  });

  it('oversampling rolls out P/ratio groups and keeps P', async () => {
    const { rows } = await runTiny(
      tinyConfig('starpo-s', { filterMode: 'oversample', filterRatio: 0.5, criticWarmup: 0 }),
    );
    expect(rows[0]!['rollout/filterKeptRatio']).toBe(0.5);
    expect(rows[0]!['actor/samplesPerStep']).toBe(4);
  });

  it.each([
    ['shared', [0, 0, 0, 0]],
    ['independent', [0, 1, 2, 3]],
  ] as const)('groupStreams %s resets a group’s rollouts with instances %j', async (mode, want) => {
    const calls = await recordedResets(tinyConfig('starpo-grpo', { groupStreams: mode, iterations: 1 }));
    const { seeds, instances } = calls[0]!;
    expect(seeds).toHaveLength(8);
    expect(instances).toEqual([...want, ...want]);
    expect(new Set(seeds.slice(0, 4)).size).toBe(1);
  });

  it('a start pool as large as the groups gives every iteration the same goals', async () => {
    const calls = await recordedResets(tinyConfig('starpo-grpo', { startPool: 2, iterations: 3 }));
    const groupSeeds = calls.map((c) => [c.seeds[0], c.seeds[4]]);
    expect(groupSeeds[0]![0]).not.toBe(groupSeeds[0]![1]);
    expect(groupSeeds[1]).toEqual(groupSeeds[0]);
    expect(groupSeeds[2]).toEqual(groupSeeds[0]);
    // Without a pool every iteration draws new seeds.
    const fresh = await recordedResets(tinyConfig('starpo-grpo', { iterations: 3 }));
    expect(new Set(fresh.flatMap((c) => [c.seeds[0], c.seeds[4]])).size).toBe(6);
  });

  it('a larger start pool is cycled in turn, each seed as often as the others', async () => {
    const calls = await recordedResets(tinyConfig('starpo-grpo', { startPool: 3, iterations: 3 }));
    const order = calls.flatMap((c) => [c.seeds[0], c.seeds[4]]);
    // 3 iterations × 2 groups over a pool of 3: p0 p1 | p2 p0 | p1 p2.
    expect(order.slice(3)).toEqual(order.slice(0, 3));
    expect(new Set(order).size).toBe(3);
  });

  it('dynamic sampling (DAPO) rolls out P more groups while fewer than P have any reward spread, up to 3 batches', async () => {
    const calls = await recordedResets(tinyConfig('starpo-dapo', { iterations: 2 }));
    const plain = await recordedResets(tinyConfig('starpo-grpo', { iterations: 2 }));
    const root = new Rng(1).fork('train-seeds');
    // Every batch is one reset of P × N = 2 × 4 rollouts, its groups numbered on from the last.
    expect(calls.length).toBeGreaterThan(plain.length);
    expect(calls.length).toBeLessThanOrEqual(2 * DYNAMIC_BATCHES);
    let it = 0;
    let next = 0;
    for (const c of calls) {
      if (c.seeds[0] === startSeedOf(root, it + 1, 0)) {
        it++;
        next = 0;
      }
      expect([c.seeds[0], c.seeds[4]]).toEqual([
        startSeedOf(root, it, next),
        startSeedOf(root, it, next + 1),
      ]);
      next += 2;
    }
    expect(it).toBe(1);
    // The first batch of each iteration is the one every other arm rolls out.
    expect(calls[0]!.seeds).toEqual(plain[0]!.seeds);
  });

  it("rolls out the frozen base's reasoning only for a caller that takes samples (the page), not for the CLI", async () => {
    const config = tinyConfig('starpo-grpo', { iterations: 2, miEvery: 1 });
    const page = await recordedResets(config, true);
    const cli = await recordedResets(config);
    // One extra reset per MI iteration: the base's rollouts on the same start seeds.
    expect(page).toHaveLength(cli.length + 2);
    expect(page[1]?.seeds).toEqual(page[0]?.seeds);
  });

  it('critic warm-up makes no policy step', async () => {
    const { rows } = await runTiny(tinyConfig('starpo-s', { criticWarmup: 2, filterMode: 'off' }));
    expect(rows[0]!['actor/optimizerSteps']).toBe(0);
    expect(rows[1]!['actor/optimizerSteps']).toBe(0);
    expect(rows[2]!['actor/optimizerSteps']).toBeGreaterThan(0);
  });

  it('every arm shares the first P start states of every iteration, derived from (seed, iteration, group)', async () => {
    // Vanilla rolls out 2 groups; an oversampling arm at ratio 0.25 rolls out 8. Drawing seeds in
    // sequence gave the arms different start states from iteration 1 on.
    const vanilla = await recordedResets(tinyConfig('starpo-grpo', { iterations: 3 }));
    const over = await recordedResets(
      tinyConfig('starpo-grpo', { iterations: 3, filterMode: 'oversample', filterRatio: 0.25 }),
    );
    const root = new Rng(1).fork('train-seeds');
    for (let it = 0; it < 3; it++) {
      const v = vanilla[it]!.seeds;
      const o = over[it]!.seeds;
      expect(o).toHaveLength(32);
      // Group g's rollouts occupy [4g, 4g + 4): the first 2 groups are the same in both arms.
      expect([o[0], o[4]]).toEqual([v[0], v[4]]);
      expect([v[0], v[4]]).toEqual([startSeedOf(root, it, 0), startSeedOf(root, it, 1)]);
    }
  });

  it('a frozen control (lr 0) skips the update but writes every iteration’s row', async () => {
    const { rows } = await runTiny(tinyConfig('starpo-ppo', { lr: 0 }));
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r['actor/optimizerSteps']).toBe(0);
      expect(r['rollout/pairedSuccessRate']).toBeTypeOf('number');
      expect(r['rollout/groupSuccessStd']).toBeTypeOf('number');
      expect(r['rollout/malformedRate']).toBeTypeOf('number');
      expect(r['actor/pgLoss']).toBeUndefined();
    }
    expect(rows[0]!['eval/successRate']).toBeTypeOf('number');
    expect(rows[0]!['reasoning/mi']).toBeTypeOf('number');
  });

  it('the LR warm-up counts policy updates, not critic warm-up iterations', () => {
    // starpo-s+ over 105 iterations with 5 critic-only ones: a ramp over 10% of 100 policy updates.
    const c = { lr: 1e-3, lrWarmup: 0.1, iterations: 105, criticWarmup: 5 };
    expect(warmupLearningRate(c, 0)).toBeCloseTo(1e-4, 12);
    expect(warmupLearningRate(c, 4)).toBeCloseTo(5e-4, 12);
    expect(warmupLearningRate(c, 9)).toBeCloseTo(1e-3, 12);
    expect(warmupLearningRate(c, 50)).toBeCloseTo(1e-3, 12);
    expect(warmupLearningRate({ ...c, lrWarmup: 0 }, 0)).toBe(1e-3);
  });

  it('keeps the cross-scoring matrix with the sample of each iteration where MI was computed', async () => {
    // 6 groups: SideEnv's two prompts both appear, so the matrix is 2 × 2.
    const { rows, samples } = await runTiny(
      tinyConfig('starpo-grpo', { miEvery: 2, iterations: 3, groups: 6 }),
    );
    expect(samples.filter((s) => s.mi !== undefined).length).toBeGreaterThan(0);
    for (const [i, s] of samples.entries()) {
      if (i % 2 !== 0 || rows[i]!['reasoning/miPrompts']! < 2) {
        expect(s.mi).toBeUndefined();
        continue;
      }
      const m = s.mi!;
      const n = rows[i]!['reasoning/miPrompts']!;
      expect(m.matrix).toHaveLength(n);
      for (const r of m.matrix) expect(r).toHaveLength(n);
      expect([m.prompts.length, m.thinks.length]).toEqual([n, n]);
      // The row's MI is the matrix's.
      expect(miFromMatrix(m.matrix).mi).toBeCloseTo(rows[i]!['reasoning/mi']!, 10);
      expect(m.mi).toBe(rows[i]!['reasoning/mi']);
    }
  });

  it('keeps every paired group’s first turns, and the frozen base’s on MI iterations', async () => {
    const config = tinyConfig('starpo-grpo', { miEvery: 2, iterations: 2, groups: 3 });
    const { samples } = await runTiny(config);
    const thinks: string[] = [];
    for (const s of samples) {
      const groups = s.reasoning?.groups ?? [];
      expect(groups).toHaveLength(3);
      for (const g of groups) {
        expect(g.rollouts).toHaveLength(4);
        thinks.push(...g.rollouts.map((t) => t.think));
        // The base's reasoning only where MI was computed (iteration 0 here), N of it per group.
        if (s.iteration === 0) expect(g.base).toHaveLength(4);
        else expect(g.base).toBeUndefined();
      }
      // The sample is its group's first rollout: the same seed, thinking, first action and outcome.
      const first = s.turns[0]!;
      expect(groups[s.group]!.seed).toBe(s.seed);
      expect(groups[s.group]!.rollouts[0]).toEqual({
        think: parseResponse(first.responseText, { maxActionsPerTurn: config.maxActionsPerTurn }).think,
        action: (first.actions[0] ?? '(none)').toLowerCase().trim(),
        success: s.success,
      });
    }
    // The thinking is the rollouts' own: on these seeds some first turns close a </think>, so not
    // every kept one is the '' of a turn without it.
    expect(thinks.some((t) => t.length > 0)).toBe(true);
  });

  it('measures iteration 0 on the base: evaluation and MI run before the update', async () => {
    const config = tinyConfig('starpo-grpo', { lr: 1e-2, evalEvery: 1, miEvery: 1, iterations: 2 });
    const mc = { vocabSize: tok.size, dModel: 16, nLayers: 1, nHeads: 2, context: 128, mlpRatio: 2 };
    const policy = createPolicy(mc, new Rng(3));
    const fingerprint = async () => {
      const sums = await Promise.all(
        policy.names.map(async (n) => {
          const t = (policy.weights[n] as tf.Variable).sum();
          const d = await t.data();
          t.dispose();
          return d[0] as number;
        }),
      );
      return sums.join(',');
    };
    const atEvaluation: string[] = [];
    const evalInner = new InProcessEnvPool(() => new SideEnv());
    const evalPool = {
      get stepsTaken() {
        return evalInner.stepsTaken;
      },
      // The policy's weights at the moment the evaluation starts its episodes.
      reset: async (seeds: readonly number[], instances?: readonly number[]) => {
        atEvaluation.push(await fingerprint());
        return evalInner.reset(seeds, instances);
      },
      step: (batch: Parameters<InProcessEnvPool['step']>[0]) => evalInner.step(batch),
    };
    const base = await fingerprint();
    const trainer = new Trainer({
      config,
      tokenizer: tok,
      policy,
      critic: null,
      pool: new InProcessEnvPool(() => new SideEnv()),
      evalPool,
    });
    const row0 = await trainer.step();
    const afterFirst = await fingerprint();
    await trainer.step();
    trainer.dispose();
    disposeModel(policy);
    // The update moved the weights, yet iteration 0 was evaluated on the base and iteration 1 on
    // the policy after one update (the one that made iteration 1's rollouts).
    expect(afterFirst).not.toBe(base);
    expect(atEvaluation.length).toBeGreaterThanOrEqual(2);
    expect(new Set(atEvaluation.slice(0, atEvaluation.length / 2))).toEqual(new Set([base]));
    expect(new Set(atEvaluation.slice(atEvaluation.length / 2))).toEqual(new Set([afterFirst]));
    // Iteration 0's measurements are in its row, and are what they measure: a success rate, and
    // the MI proxy over its distinct prompts, at most log N (mi.ts).
    const success = row0['eval/successRate'] as number;
    expect(Number.isFinite(success)).toBe(true);
    expect(success).toBeGreaterThanOrEqual(0);
    expect(success).toBeLessThanOrEqual(1);
    const prompts = row0['reasoning/miPrompts'] as number;
    expect(Number.isInteger(prompts)).toBe(true);
    expect(prompts).toBeGreaterThanOrEqual(0);
    expect(prompts).toBeLessThanOrEqual(config.miSamples);
    const mi = row0['reasoning/mi'] as number;
    expect(Number.isFinite(mi)).toBe(true);
    expect(mi).toBeLessThanOrEqual(Math.log(Math.max(prompts, 1)) + 1e-9);
    expect(row0['reasoning/retrievalAcc']).toBeGreaterThanOrEqual(0);
    expect(row0['reasoning/retrievalAcc']).toBeLessThanOrEqual(1);
  });

  it('splits the update time into scoring, policy steps and critic steps and the wait for them (no critic: 0)', async () => {
    const ppo = (await runTiny(tinyConfig('starpo-ppo', { criticWarmup: 0, iterations: 1 })))
      .rows[0] as MetricRow;
    const grpo = (await runTiny(tinyConfig('starpo-grpo', { iterations: 1 }))).rows[0] as MetricRow;
    const keys = [
      'time/scoringMs',
      'time/policyMs',
      'time/criticMs',
      'time/criticWaitMs',
      'time/measureMs',
    ] as const;
    for (const k of keys) {
      expect(ppo[k], k).toBeGreaterThanOrEqual(0);
      expect(grpo[k], k).toBeGreaterThanOrEqual(0);
    }
    expect(ppo['time/criticMs']).toBeGreaterThan(0);
    expect(ppo['time/policyMs']).toBeGreaterThan(0);
    expect(grpo['time/criticMs']).toBe(0);
    expect(grpo['time/criticWaitMs']).toBe(0);
    // In one thread the critic's steps come after the policy's: the update waits for all of them.
    expect(ppo['time/criticWaitMs']).toBeGreaterThanOrEqual(ppo['time/criticMs'] as number);
    // The parts fit inside the update they split.
    const parts = (ppo['time/scoringMs'] ?? 0) + (ppo['time/policyMs'] ?? 0) + (ppo['time/criticMs'] ?? 0);
    expect(parts).toBeLessThanOrEqual((ppo['time/updateMs'] ?? 0) + 1e-6);
  });
});
