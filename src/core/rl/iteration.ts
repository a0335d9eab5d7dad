// One StarPO iteration, top to bottom, in the paper's words and in the order cleanrl's ppo.py
// reads: 1. rollout (P prompts × N responses each, multi-turn), 2. filter (StarPO-S keeps the
// groups of highest reward spread), 3. score (old log-probs, the reference's, the critic's
// values), 4. advantages, 5. epochs (the objective's update over minibatches), 6. metrics.
// Nothing else is here: where the rollouts run (this thread, or split over two workers), the work
// beside the update (evaluation, MI, the viewer's base reasoning, perhaps in a second worker), the
// clock, and the snapshot the weights return to after a non-finite step hang on it from outside,
// through `IterationHooks` (the trainer's, trainer.ts).
import type { Config } from '../config.js';
import type { MetricRow } from '../metrics/keys.js';
import { pairedSuccess, rolloutMetrics } from '../metrics/rolloutMetrics.js';
import type { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import { trainingSamples } from './batch.js';
import { type FilterRollout, keptTrajectories, rollOutForFilter } from './filterRollout.js';
import { isFrozenControl } from './frozenControl.js';
import { checkedUpdate, type LearnModels } from './learnStep.js';
import { miDue } from './measure.js';
import { type UpdateReport, updateMetrics } from './optimize.js';
import { computeAdvantages, scoreSamples } from './prepare.js';
import type { RolloutStart, RolloutStats, Trajectory } from './rollout.js';
import { groupStarts, type StartSeeds, warmupLearningRate } from './runSchedule.js';

/** What an iteration reads: the run's settings, models, start seeds, streams and update count. */
export interface IterationParts {
  config: Config;
  iteration: number;
  tok: Tokenizer;
  models: LearnModels;
  seeds: StartSeeds;
  /** The `random` filter order's draws, and the update's minibatch shuffles. */
  streams: { filter: Rng; minibatches: Rng };
  /** Updates of the policy before this iteration (the LR warm-up counts these). */
  policyUpdates: number;
}

/** What hangs on an iteration from outside (the trainer's, trainer.ts). */
export interface IterationHooks {
  /** The policy's rollouts from `starts`: in this thread, or half in a second worker. */
  rollOut(starts: RolloutStart[]): Promise<{ trajectories: Trajectory[]; stats: RolloutStats }>;
  /**
   * The rollouts are in: the work beside the update starts (it reads the weights that sampled).
   * Resolves to whether the second worker, if any, is free to score a share of the reference.
   */
  rolledOut(trajectories: readonly Trajectory[]): Promise<{ secondWorkerFree: boolean }>;
  /** Scoring and advantages (steps 3–4), timed. */
  scoring<T>(work: () => Promise<T>): Promise<T>;
  /** The policy will be updated (the LR warm-up's count goes up by one). */
  policyUpdated(): void;
  /** The update, from a snapshot its weights go back to if it was not finite. */
  guarded(update: () => Promise<UpdateReport>): Promise<UpdateReport>;
  /** The measurements taken beside the update, waited for and written into `row`. */
  measured(row: MetricRow): Promise<void>;
}

/** The iteration's metric row (but the machine's keys) and its rollouts. */
export interface IterationResult {
  row: MetricRow;
  rolledOut: FilterRollout;
}

/** One iteration of `p.config`'s algorithm: its metric row and what it rolled out. */
export async function starpoIteration(p: IterationParts, h: IterationHooks): Promise<IterationResult> {
  const { config: c, iteration: it, tok, models } = p;
  const row: MetricRow = { iteration: it };

  // 1. Rollout: P groups × N rollouts (⌈P/ratio⌉ groups when oversampling), each group from one
  // start seed (runSchedule.ts); DAPO's dynamic sampling rolls out P more groups while fewer than
  // P have any reward spread (filterRollout.ts).
  const rolledOut = await rollOutForFilter(c, (from, count) =>
    h.rollOut(groupStarts(p.seeds, c, it, from, count)),
  );
  const { trajectories } = rolledOut;
  Object.assign(row, rolloutMetrics(trajectories, tok.special['</think>']));
  Object.assign(row, pairedSuccess(trajectories, c.groups));
  const { secondWorkerFree } = await h.rolledOut(trajectories);

  // 2. Filter: the groups the config's filter keeps (core/variants/filters), then the 2σ drop. A
  // frozen control keeps nothing (its policy cannot move: the iteration is the rollout and its
  // measurements); nor does a filter that finds no group with any reward spread.
  const learned: MetricRow = { iteration: it };
  const { kept, keptRatio } = isFrozenControl(c)
    ? { kept: [], keptRatio: 1 }
    : keptTrajectories(rolledOut, c, p.streams.filter);
  learned['rollout/filterKeptRatio'] = keptRatio;
  if (kept.length === 0) {
    learned['actor/optimizerSteps'] = 0;
    learned['actor/samplesPerStep'] = 0;
  } else {
    // 3–4, timed together as scoring (time/scoringMs).
    const critic = models.critic;
    const prepared = await h.scoring(async () => {
      // 3. Score: the kept turns as training windows (batch.ts); old log-probs from the sampler,
      // the frozen reference's, and the critic's values; the second worker scores a share of
      // the reference's when it is not measuring.
      const samples = trainingSamples(tok, kept, c);
      const scores = await scoreSamples(
        samples,
        models.policy,
        models.reference,
        critic?.inThread ? critic.model : null,
        c.temperature,
        {
          sampled: true,
          ...(critic && !critic.inThread ? { apart: critic } : {}),
          ...(secondWorkerFree && models.referenceApart ? { reference: models.referenceApart } : {}),
        },
      );
      // 4. Advantages: the config's estimator (core/variants/estimators), after any KL in the reward.
      const { prepared, stats } = computeAdvantages(samples, scores, kept, c);
      learned['actor/klRef'] = stats.klRef;
      if (critic) learned['critic/explainedVar'] = stats.explainedVar;
      return prepared;
    });

    // 5. Epochs: the objective's update (objectives.ts) over minibatches, the policy's only once
    // the critic's warm-up is over, at the warmed-up step size; on MI iterations it also
    // measures RAGEN-2's gradient split (gradSplit.ts).
    const trainPolicy = it >= c.criticWarmup || !critic;
    const lr = warmupLearningRate(c, p.policyUpdates);
    if (trainPolicy) h.policyUpdated();
    const report = await h.guarded(() =>
      checkedUpdate(prepared, models, c, trainPolicy, p.streams.minibatches, {
        lr,
        gradientSplit: miDue(c, it),
      }),
    );
    Object.assign(learned, updateMetrics(report));
  }

  // 6. Metrics: the rollout's, the measurements' (evaluation, MI), then the update's.
  await h.measured(row);
  Object.assign(row, learned);
  return { row, rolledOut };
}
