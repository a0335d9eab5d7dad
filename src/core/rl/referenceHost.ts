// The second worker of a run without a critic (issue 40). It holds a copy of the frozen reference
// and scores a share of its length groups while this thread scores the rest (scoreBatch.ts
// shareGroups); each group is scored as the serial pass scores it — the same rows, the same
// padding, the same kernels — so the log-probs are the same numbers, from two threads. On the
// iterations that measure, it takes the held-out evaluation and the MI proxy of the policy that
// made the rollouts (measure.ts MeasureApart) and, for the page's reasoning panel, the frozen
// base's rollouts, while this thread scores and updates.
import { disposeModel, type Model, modelFromWeightValues } from '../model/params.js';
import { type SampledRow, sampleBatch } from '../model/sampling.js';
import { scoreBatch } from '../model/scoreBatch.js';
import { Rng, type RngState } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import type { EnvPool } from './envPool.js';
import { type MeasureApart, takeMeasurements } from './measure.js';
import { type RolloutSettings, type RolloutStart, rollout, type Trajectory } from './rollout.js';
import type { SampleApart, SampleShare } from './splitSample.js';

/**
 * A copy of the frozen reference somewhere else (a second worker) that scores length groups,
 * measures, and samples a share of each turn's rows with the policy's weights (splitSample.ts).
 */
export interface ReferenceApart extends MeasureApart, SampleApart {
  /**
   * Per row of `rows`, the reference's log-probs at `temperature` on the positions `masks` reads,
   * for the rows of `groups` (indices into `rows`, each group one pass); null for the others.
   */
  logps(
    rows: readonly (readonly number[])[],
    groups: readonly (readonly number[])[],
    masks: readonly Float32Array[],
    temperature: number,
  ): Promise<(Float32Array | null)[]>;
  /**
   * The frozen base's rollouts from `starts` on env `env` (the page's reasoning panel, on MI
   * iterations), drawing from the stream `rng` describes; returns where that stream ended.
   */
  rollOut(
    starts: readonly RolloutStart[],
    settings: RolloutSettings,
    env: string,
    rng: StreamAt,
  ): Promise<{ trajectories: Trajectory[]; rng: RngState }>;
  dispose(): void;
}

/** A random stream as it travels: its seed and its position. */
export interface StreamAt {
  seed: number;
  state: RngState;
}

/** The base's rollouts from `starts` with the stream `at` describes, and where the stream ended. */
export async function baseRollout(
  reference: Model,
  tok: Tokenizer,
  pool: EnvPool,
  starts: readonly RolloutStart[],
  settings: RolloutSettings,
  at: StreamAt,
): Promise<{ trajectories: Trajectory[]; rng: RngState }> {
  const rng = new Rng(at.seed);
  rng.restore(at.state);
  const r = await rollout(reference, tok, pool, [...starts], settings, rng);
  return { trajectories: r.trajectories, rng: rng.state() };
}

/**
 * Makes the second worker of a run without a critic from its reference (the weights are sent once:
 * they never change) and its tokenizer (for the measurements).
 */
export type ReferenceHostFactory = (reference: Model, tok: Tokenizer) => ReferenceApart;

/** The reference's log-probs of the rows of `groups`, each group one pass (scoreBatch alone on it). */
export async function referenceLogps(
  reference: Model,
  rows: readonly (readonly number[])[],
  groups: readonly (readonly number[])[],
  masks: readonly Float32Array[],
  temperature: number,
): Promise<(Float32Array | null)[]> {
  const b = await scoreBatch(rows, [{ model: reference, temperature }], null, { masks, groups });
  return b.logps[0] as (Float32Array | null)[];
}

/**
 * A share of a turn's rows sampled by `policy` with the uniforms it comes with (splitSample.ts);
 * the stream is not touched (the share's draws stand in for it).
 */
export function sampleShare(policy: Model, tok: Tokenizer, share: SampleShare): Promise<SampledRow[]> {
  const { prompts, maxNewTokens, temperature, draws, padTo } = share;
  return sampleBatch(policy, tok, prompts, { maxNewTokens, temperature, draws, padTo, rng: new Rng(0) });
}

/**
 * The rows of `groups` alone, renumbered, with their masks: what goes to the other worker (rows
 * outside the groups stay here); `spread` puts its answers back at the rows' places.
 */
export function compactGroups(
  rows: readonly (readonly number[])[],
  groups: readonly (readonly number[])[],
  masks: readonly Float32Array[],
): {
  rows: number[][];
  groups: number[][];
  masks: Float32Array[];
  spread(answers: readonly (Float32Array | null)[]): (Float32Array | null)[];
} {
  const picked = groups.flat();
  let k = 0;
  return {
    rows: picked.map((i) => [...(rows[i] as number[])]),
    groups: groups.map((g) => g.map(() => k++)),
    masks: picked.map((i) => masks[i] as Float32Array),
    spread(answers) {
      const out: (Float32Array | null)[] = rows.map(() => null);
      picked.forEach((i, j) => {
        out[i] = answers[j] ?? null;
      });
      return out;
    },
  };
}

/** What this thread holds to do a second worker's share itself: the reference, the tokenizer, the envs. */
export interface ReferenceHere {
  reference: Model;
  tok: Tokenizer;
  pool: EnvPool;
  evalPool: EnvPool;
}

/**
 * `apart`, or this thread once it has failed (a worker that crashed or could not start): its
 * share of the groups scored by the reference here, its measurements taken of a copy of the
 * weights it was sent — the same numbers, one worker's time — so a run does not end for want of
 * its second worker. `onFail` hears the first failure.
 */
export function orThisThread(
  apart: ReferenceApart,
  here: ReferenceHere,
  onFail: (err: Error) => void = () => {},
): ReferenceApart {
  let failed = false;
  /** `there`, until a call fails (said once); from then on, and for that call, `here`. */
  const either =
    <A extends unknown[], R>(there: (...a: A) => Promise<R>, here: (...a: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (!failed)
        try {
          return await there(...args);
        } catch (err) {
          // Calls in flight together fail together: the first to hear it says it.
          if (!failed) onFail(err instanceof Error ? err : new Error(String(err)));
          failed = true;
        }
      return here(...args);
    };
  const measureHere: ReferenceApart['measure'] = async (weights, req, c) => {
    const policy = modelFromWeightValues('policy', here.reference.config, weights, false);
    try {
      return await takeMeasurements(req, c, { policy, tok: here.tok, evalPool: here.evalPool });
    } finally {
      disposeModel(policy);
    }
  };
  return {
    logps: either(
      (...a) => apart.logps(...a),
      (rows, groups, masks, temperature) => referenceLogps(here.reference, rows, groups, masks, temperature),
    ),
    measure: either((...a) => apart.measure(...a), measureHere),
    sample: either(
      (...a) => apart.sample(...a),
      async (weights, share) => {
        const policy = modelFromWeightValues('policy', here.reference.config, weights, false);
        try {
          return await sampleShare(policy, here.tok, share);
        } finally {
          disposeModel(policy);
        }
      },
    ),
    rollOut: either(
      (...a) => apart.rollOut(...a),
      (starts, settings, _env, rng) =>
        baseRollout(here.reference, here.tok, here.pool, starts, settings, rng),
    ),
    dispose: () => apart.dispose(),
  };
}
