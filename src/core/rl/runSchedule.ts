// What iteration `it` of a run uses, as pure functions of its config: the start seeds of its
// groups (every arm of a comparison sees the same first P start states), the N rollouts' starts
// of a range of groups, the policy's step size under LR warm-up, and the rollout settings
// (per-turn samples see only their own state, in rollouts as in training).
import type { Config } from '../config.js';
import { Rng } from '../rng.js';
import { estimatorOf } from '../variants/estimators.js';
import { streamInstance } from './envPool.js';
import { EVAL_SEED_BASE } from './evaluate.js';
import { groupsToRollOut } from './filter.js';
import type { RolloutSettings, RolloutStart } from './rollout.js';

/**
 * The start seed of group `g` in iteration `it` of a run whose start-seed root is `root`
 * (`new Rng(seed).fork('train-seeds')`): a pure function of the three, in [0, EVAL_SEED_BASE), so
 * training never starts from a held-out seed.
 */
export function startSeedOf(root: Rng, it: number, g: number): number {
  return root.fork(`${it}/${g}`).int(0, EVAL_SEED_BASE);
}

/** Where a run's start seeds come from: the root they derive from, or a fixed pool. */
export interface StartSeeds {
  root: Rng;
  /** The fixed training start seeds when `startPool` > 0 (empty: a fresh seed per group). */
  pool: readonly number[];
}

export function startSeedsOf(c: Pick<Config, 'seed' | 'startPool'>): StartSeeds {
  const rng = new Rng(c.seed);
  const poolRng = rng.fork('train-pool');
  return {
    root: rng.fork('train-seeds'),
    pool: Array.from({ length: c.startPool }, () => poolRng.int(0, EVAL_SEED_BASE)),
  };
}

/**
 * Group g's start seed in iteration `it`: derived from (run seed, iteration, group) alone, so
 * every arm of a comparison, whatever it rolls out (an oversampling arm rolls out ⌈P/ratio⌉
 * groups), sees the same first P start states in every iteration; or, with a start pool, the
 * next seeds of the pool in turn (a pool of P seeds gives every iteration the same P goals).
 */
export function groupStartSeed(seeds: StartSeeds, it: number, g: number, rolled: number): number {
  const { pool } = seeds;
  if (pool.length === 0) return startSeedOf(seeds.root, it, g);
  return pool[(it * rolled + g) % pool.length] as number;
}

/**
 * The starts of groups `from` … `from + count − 1` of iteration `it`, N rollouts each from the
 * group's seed and, with shared streams, one env random stream (RAGEN's _expand_seed).
 */
export function groupStarts(
  seeds: StartSeeds,
  c: Pick<Config, 'groups' | 'groupSize' | 'groupStreams' | 'filterMode' | 'filterRatio'>,
  it: number,
  from: number,
  count: number,
): RolloutStart[] {
  const starts: RolloutStart[] = [];
  for (let g = from; g < from + count; g++) {
    const seed = groupStartSeed(seeds, it, g, groupsToRollOut(c.groups, c.filterMode, c.filterRatio));
    for (let k = 0; k < c.groupSize; k++)
      starts.push({ group: g, seed, instance: streamInstance(c.groupStreams, k) });
  }
  return starts;
}

/**
 * The policy's step size for its update after `policyUpdates` earlier ones: with an LR warm-up, a
 * linear ramp lr·(k + 1)/W over the first W = lrWarmup × (iterations − criticWarmup) policy
 * updates, so critic-only warm-up iterations do not consume the ramp.
 */
export function warmupLearningRate(
  c: Pick<Config, 'lr' | 'lrWarmup' | 'iterations' | 'criticWarmup'>,
  policyUpdates: number,
): number {
  const warm = c.lrWarmup * Math.max(1, c.iterations - c.criticWarmup);
  return c.lr * (warm > 0 ? Math.min(1, (policyUpdates + 1) / warm) : 1);
}

/** The rollout settings of a config at `temperature` (0: greedy). */
export function rolloutSettings(c: Config, temperature: number): RolloutSettings {
  return {
    maxTurns: c.maxTurns,
    maxActionsPerTurn: c.maxActionsPerTurn,
    maxActionsPerTraj: c.maxActionsPerTraj,
    maxTokensPerTurn: c.maxTokensPerTurn,
    contextLength: c.contextLength,
    // Per-turn samples (ppo-turn) see only their own state, in rollouts as in training.
    historyTurns: estimatorOf(c).samples === 'turn' ? 1 : c.historyTurns,
    temperature,
    formatPenalty: c.formatPenalty,
  };
}
