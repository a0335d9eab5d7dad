// The trainer: a run's state around its iterations. One iteration — rollout, filter, score,
// advantages, epochs, metrics — reads top to bottom in iteration.ts; what hangs on it is here: the
// rollouts in this thread or split over two workers (splitSample.ts), the measurements beside the
// update (besideUpdate.ts, measure.ts), the clock, and the fault guard: a non-finite step is never
// applied — the weights go back to those the update started from and an error event says so
// (faults.ts); after three such iterations in a row the run pauses with a suggestion. Also here:
// live settings, the checkpointed position (trainingState.ts), resuming, the detector's events and
// what the page is shown (viewerSample.ts). It reports only through callbacks and stops cleanly on
// request; what a trainer is made from is trainerSetup.ts. Types and functions callers took from
// here are re-exported.
import * as tf from '@tensorflow/tfjs';
import { now } from '../clock.js';
import { type Config, formatErrors, validateConfig } from '../config.js';
import { detectorOptionsFor, EchoTrapDetector, type RunSummary } from '../metrics/detector.js';
import type { MetricRow } from '../metrics/keys.js';
import { Adam } from '../model/adam.js';
import { gpuBytes } from '../model/gpuMemory.js';
import { cloneModel, disposeModel, type Model } from '../model/params.js';
import { NonFiniteError } from '../model/sampling.js';
import { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import { usesCritic } from './algorithms.js';
import { type BesideParts, secondWorkerOf, startBaseReasoning, startMeasurements } from './besideUpdate.js';
import { type CriticHost, localCritic } from './criticHost.js';
import type { EnvPool } from './envPool.js';
import type { EvalResult } from './evaluate.js';
import { faultSuggestion, LastGoodWeights, MAX_CONSECUTIVE_FAULTS } from './faults.js';
import { type IterationHooks, type IterationParts, starpoIteration } from './iteration.js';
import type { LearnModels } from './learnStep.js';
import { evaluateOn, type Measured, writeMeasurements } from './measure.js';
import type { UpdateReport } from './optimize.js';
import type { ReferenceApart } from './referenceHost.js';
import { type RolloutStart, rollout } from './rollout.js';
import { rolloutSettings, type StartSeeds, startSeedsOf } from './runSchedule.js';
import { splitSampler } from './splitSample.js';
import type { TrainerCallbacks, TrainerSetup } from './trainerSetup.js';
import {
  captureTrainingState,
  LIVE_FIELDS,
  restoreTrainingState,
  type StreamName,
  type TrainerCounters,
  type TrainerParts,
  type TrainingState,
} from './trainingState.js';
import { type BaseRollout, type MiSnapshot, reasoningOf, sampleOf } from './viewerSample.js';

export { startSeedOf, warmupLearningRate } from './runSchedule.js';
export type { TrainerCallbacks, TrainerEvent, TrainerSetup } from './trainerSetup.js';
export {
  LIVE_FIELDS,
  parseTrainerPosition,
  type TrainerPosition,
  type TrainingState,
} from './trainingState.js';
export type { FirstTurn, MiSnapshot, ReasoningSnapshot, SampledTrajectory } from './viewerSample.js';

export class Trainer {
  config: Config;
  iteration = 0;
  /** The echo-trap detector, its noise bound sized to this run's P × N rollouts per iteration. */
  readonly detector: EchoTrapDetector;
  private readonly tok: Tokenizer;
  private readonly policy: Model;
  private readonly reference: Model;
  /** The critic, in this thread or in its own worker (criticHost.ts); null without one. */
  private readonly critic: CriticHost | null;
  /** The reference's copy in a second worker (a run without a critic, on two workers); else null. */
  private readonly referenceApart: ReferenceApart | null;
  /** The weights each update started from, to go back to after a non-finite step. */
  private readonly lastGood: LastGoodWeights;
  private readonly policyOpt: Adam;
  /** Where each group's start seed comes from (runSchedule.ts). */
  private readonly seeds: StartSeeds;
  /**
   * The random streams: sampling, minibatch shuffles, the `random` filter order's draws, and the
   * frozen base's reasoning for the reasoning panel (never the run's own streams).
   */
  private readonly streams: Record<StreamName, Rng>;
  private consecutiveErrors = 0;
  /** Iterations so far that updated the policy (the LR warm-up counts these). */
  private policyUpdates = 0;
  /**
   * The last update passed its checks but its weights have not yet sampled a rollout: a
   * sampling fault next iteration counts against it, so the fault streak resets only once the
   * next rollout succeeds (finite-but-huge weights fail there, not at the update).
   */
  private unconfirmedUpdate = false;
  /**
   * Why the run is paused after repeated non-finite iterations (null while healthy): `run()`
   * stops, `step()` refuses, and a live change (e.g. a lower learning rate) clears it.
   */
  haltReason: string | null = null;
  private readonly cb: TrainerCallbacks;
  private readonly pool: EnvPool;
  private readonly evalPool: EnvPool;

  constructor(setup: TrainerSetup) {
    this.config = setup.config;
    this.detector = new EchoTrapDetector(detectorOptionsFor(setup.config));
    this.tok = setup.tokenizer;
    this.policy = setup.policy;
    this.reference = cloneModel(setup.policy, false);
    if (usesCritic(setup.config) && !setup.critic)
      throw new Error(`${setup.config.algorithm} needs a critic`);
    const eps = setup.config.adamEpsilon;
    this.critic =
      usesCritic(setup.config) && setup.critic
        ? (setup.criticHost ?? localCritic)(setup.critic, { epsilon: eps })
        : null;
    const here = { reference: this.reference, tok: this.tok, pool: setup.pool, evalPool: setup.evalPool };
    const warn = (message: string) => setup.callbacks?.onWarning?.(message);
    this.referenceApart = this.critic ? null : secondWorkerOf(setup.referenceHost, here, warn);
    this.lastGood = new LastGoodWeights(this.policy, this.critic);
    this.policyOpt = new Adam({ epsilon: eps });
    this.seeds = startSeedsOf(setup.config);
    const rng = new Rng(setup.config.seed);
    this.streams = {
      sampling: rng.fork('sampling'),
      minibatches: rng.fork('minibatches'),
      filter: rng.fork('filter'),
      baseReasoning: rng.fork('base-reasoning'),
    };
    this.cb = setup.callbacks ?? {};
    this.pool = setup.pool;
    this.evalPool = setup.evalPool;
  }

  /** Changes live settings (learning rate, KL, clip, temperature, entropy, filter ratio). */
  setLive(changes: Partial<Config>): void {
    const bad = Object.keys(changes).filter((k) => !LIVE_FIELDS.has(k));
    if (bad.length > 0)
      throw new Error(`cannot change mid-run: ${bad.join(', ')} (live: ${[...LIVE_FIELDS].join(', ')})`);
    const r = validateConfig({ ...this.config, ...changes });
    if (!r.ok) throw new Error(formatErrors(r.errors));
    this.config = r.config;
    this.haltReason = null;
    this.consecutiveErrors = 0;
    this.cb.onEvent?.({ type: 'live', iteration: this.iteration, changes });
  }

  /** The run's position beside its weights, for a checkpoint (`resumeAt` takes it back). */
  async trainingState(): Promise<TrainingState> {
    await this.critic?.pull(); // the critic's weights here, for the checkpoint beside this state
    return captureTrainingState(this.parts(), this.counters(), this.config);
  }

  /** What of the trainer its training state saves besides the counters. */
  private parts(): TrainerParts & LearnModels {
    return {
      policy: this.policy,
      critic: this.critic,
      reference: this.reference,
      referenceApart: this.referenceApart,
      policyOpt: this.policyOpt,
      streams: this.streams,
    };
  }

  private counters(): TrainerCounters {
    const { iteration, policyUpdates, consecutiveErrors, unconfirmedUpdate } = this;
    return { iteration, policyUpdates, consecutiveErrors, unconfirmedUpdate };
  }

  /**
   * Continues a run that was cut off (a reloaded tab, the browser's worker restart): the caller
   * has put the checkpoint's weights into the policy (and critic); they become the last good
   * weights, the count goes on from `iteration`, and earlier rows are replayed into the detector.
   * With the checkpoint's `training` state (counters, live settings, random streams, Adam's
   * moments) the rest of the run writes the rows the uninterrupted run would have written;
   * without it (a checkpoint from before it was saved) Adam and the random streams start afresh.
   */
  resumeAt(iteration: number, rows: readonly MetricRow[], training?: TrainingState): void {
    this.critic?.push();
    if (training) {
      const r = restoreTrainingState(this.parts(), training, iteration, this.config);
      this.config = r.config;
      this.policyUpdates = r.counters.policyUpdates;
      this.consecutiveErrors = r.counters.consecutiveErrors;
      this.unconfirmedUpdate = r.counters.unconfirmedUpdate;
    } else {
      this.policyUpdates = this.critic ? Math.max(0, iteration - this.config.criticWarmup) : iteration;
    }
    this.iteration = iteration;
    this.lastGood.save();
    for (const row of rows) if (row.iteration < iteration) this.detector.update(row);
  }

  /** Success rates on the held-out seeds, greedy and at temperature 1. */
  evaluate(): Promise<EvalResult> {
    return evaluateOn(this.policy, this.tok, this.evalPool, this.config);
  }

  /** Reports a non-finite iteration; the third in a row pauses the run with a suggestion. */
  private fault(iteration: number, message: string): void {
    this.consecutiveErrors++;
    const consecutive = this.consecutiveErrors;
    if (consecutive < MAX_CONSECUTIVE_FAULTS) {
      this.cb.onEvent?.({ type: 'error', iteration, consecutive, message });
      return;
    }
    const suggestion = faultSuggestion(this.config);
    this.haltReason = `paused after ${consecutive} non-finite iterations in a row (last: ${message}): ${suggestion}`;
    this.cb.onEvent?.({ type: 'error', iteration, consecutive, message, pause: true, suggestion });
  }

  /**
   * One full iteration; resolves to its metric row. A non-finite update or sampling step is
   * skipped with an error event (the row then holds only the iteration); throws while paused.
   */
  async step(): Promise<MetricRow> {
    if (this.haltReason) throw new Error(this.haltReason);
    const it = this.iteration;
    try {
      return await this.iterate();
    } catch (err) {
      if (!(err instanceof NonFiniteError)) throw err;
      this.lastGood.restore();
      this.unconfirmedUpdate = false;
      this.iteration = it + 1;
      this.fault(it, `${err.message}; weights restored to the last good ones`);
      return { iteration: it };
    }
  }

  /** N rollouts of `model` from each of `starts`; the policy's half in the second worker, if any (splitSample.ts). */
  private rollOut(model: Model, starts: RolloutStart[], rng: Rng) {
    const c = this.config;
    const apart = model === this.policy ? this.referenceApart : null;
    const sample = apart ? splitSampler(model, this.tok, apart) : undefined;
    return rollout(model, this.tok, this.pool, starts, rolloutSettings(c, c.temperature), rng, sample);
  }

  /** What the work beside the update reads (besideUpdate.ts). */
  private beside(): BesideParts {
    const { policy, reference, tok, pool, evalPool } = this;
    const rollOutBase = async (starts: RolloutStart[], rng: Rng) =>
      (await this.rollOut(reference, starts, rng)).trajectories;
    return { policy, reference, tok, pool, evalPool, apart: this.referenceApart, rollOutBase };
  }

  /**
   * One iteration (iteration.ts) with what hangs on it here: the rollouts on this thread or split
   * over two workers, the measurements beside the update, the clock, the weights to return to
   * after a non-finite update; then the row's machine keys, the detector, the viewer's sample and
   * the checkpoint.
   */
  private async iterate(): Promise<MetricRow> {
    const c = this.config;
    const it = this.iteration;
    const t0 = now();
    const ms = { rollout: 0, update: 0, measure: 0, scoring: null as number | null };
    let u0 = 0;
    let measuring: Promise<Measured> | null = null;
    let measured: Measured = {};
    let baseReasoning: BaseRollout | null = null;
    let mi: MiSnapshot | undefined;
    const hooks: IterationHooks = {
      rollOut: (starts) => this.rollOut(this.policy, starts, this.streams.sampling),
      rolledOut: async (trajectories) => {
        ms.rollout = now() - t0;
        if (this.unconfirmedUpdate) {
          this.consecutiveErrors = 0;
          this.unconfirmedUpdate = false;
        }
        // Iteration `it`'s measurements describe the policy that made its rollouts: taken here
        // before the update, or in the second worker beside it (besideUpdate.ts).
        const m0 = now();
        const beside = this.beside();
        ({ measured, measuring } = await startMeasurements(beside, trajectories, it, c));
        if (this.cb.onSample)
          baseReasoning = startBaseReasoning(beside, trajectories, it, c, this.streams.baseReasoning);
        ms.measure = now() - m0;
        u0 = now();
        return { secondWorkerFree: !measuring };
      },
      scoring: async (work) => {
        const s0 = now();
        const result = await work();
        ms.scoring = now() - s0;
        return result;
      },
      policyUpdated: () => {
        this.policyUpdates++;
      },
      guarded: (update) => this.guardedUpdate(it, update),
      measured: async (row) => {
        ms.update = now() - u0;
        if (measuring) {
          // The time this thread waited for the measurements, not the worker's time on them.
          const w0 = now();
          measured = await measuring;
          ms.measure += now() - w0;
        }
        mi = writeMeasurements(row, measured, this.tok);
      },
    };
    const { row, rolledOut } = await starpoIteration(this.iterationParts(), hooks);

    // The row's machine keys: timings, throughput and memory; then the detector's events.
    const { stats, trajectories } = rolledOut;
    row['time/rolloutMs'] = ms.rollout;
    row['time/updateMs'] = ms.update;
    row['time/measureMs'] = ms.measure;
    if (ms.scoring !== null) row['time/scoringMs'] = ms.scoring;
    row['perf/tokensPerSec'] = stats.sampleMs > 0 ? (1000 * stats.tokens) / stats.sampleMs : 0;
    row['perf/envStepsPerSec'] = stats.envMs > 0 ? (1000 * stats.envSteps) / stats.envMs : 0;
    row['memory/numTensors'] = tf.memory().numTensors;
    row['memory/gpuBytes'] = gpuBytes();

    this.cb.onMetrics?.(row);
    for (const e of this.detector.update(row)) this.cb.onEvent?.({ type: 'echo', ...e });
    // The sample (with the frozen base's reasoning on MI iterations: one more rollout) only for
    // a caller that takes samples — the page; the command line's runs skip its cost.
    if (this.cb.onSample) {
      const reasoning = await reasoningOf(trajectories, c, baseReasoning);
      this.cb.onSample({ ...sampleOf(trajectories, it, this.tok), ...(mi ? { mi } : {}), reasoning });
    }
    this.iteration++;
    if (c.checkpointEvery > 0 && this.iteration % c.checkpointEvery === 0)
      await this.cb.onCheckpoint?.(this.iteration);
    return row;
  }

  /** What iteration `this.iteration` reads (iteration.ts). */
  private iterationParts(): IterationParts {
    const { config, iteration, tok, seeds, policyUpdates } = this;
    const { filter, minibatches } = this.streams;
    return {
      config,
      iteration,
      tok,
      models: this.parts(),
      seeds,
      streams: { filter, minibatches },
      policyUpdates,
    };
  }

  /**
   * The update from a snapshot the weights go back to when it is not finite (an error event, and
   * the third in a row pauses the run); a finite one is confirmed by the next rollout.
   */
  private async guardedUpdate(it: number, update: () => Promise<UpdateReport>): Promise<UpdateReport> {
    this.lastGood.save();
    const report = await update();
    if (report.nonFinite) {
      this.lastGood.restore();
      this.unconfirmedUpdate = false;
      this.fault(
        it,
        `non-finite update skipped (${report.nonFinite}); weights restored to the start of iteration ${it}`,
      );
    } else {
      this.unconfirmedUpdate = true;
    }
    return report;
  }

  /**
   * Iterates until the planned count, until `shouldStop` says so (checked between iterations), or
   * until repeated non-finite iterations pause the run (`haltReason` then says why).
   */
  async run(shouldStop: () => boolean = () => false): Promise<RunSummary> {
    while (this.iteration < this.config.iterations && !shouldStop() && !this.haltReason) await this.step();
    return this.detector.summary();
  }

  summary(): RunSummary {
    return this.detector.summary();
  }

  /**
   * Frees the trainer's own tensors (reference, backups, optimizers) and its second worker (the
   * critic's host or the reference's copy, if any), not the policy or the critic's weights here.
   */
  dispose(): void {
    disposeModel(this.reference);
    this.lastGood.dispose();
    this.policyOpt.dispose();
    this.critic?.dispose();
    this.referenceApart?.dispose();
  }
}
