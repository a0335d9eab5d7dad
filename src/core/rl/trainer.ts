// The trainer: one iteration = rollout → periodic evaluation and MI (of the policy that made the
// rollout, so iteration 0's are the base model's) → filter → old/ref log-probs and values →
// advantages → update → metrics → detector events. It reports only through callbacks, stops
// cleanly on request, and never applies a non-finite step: it restores the weights the
// iteration started with and emits an error event instead (faults.ts); after three such
// iterations in a row it pauses the run with a suggestion.
import * as tf from '@tensorflow/tfjs';
import { now } from '../clock.js';
import { type Config, FIELDS, formatErrors, validateConfig } from '../config.js';
import {
  detectorOptionsFor,
  type EchoEvent,
  EchoTrapDetector,
  type RunSummary,
} from '../metrics/detector.js';
import type { MetricRow } from '../metrics/keys.js';
import { miPairs, reasoningMi } from '../metrics/mi.js';
import { pairedSuccess, rolloutMetrics } from '../metrics/rolloutMetrics.js';
import { type AdamState, readAdamState, writeAdamState } from '../model/adamState.js';
import { gpuBytes } from '../model/gpuMemory.js';
import { cloneModel, copyWeights, disposeModel, type Model } from '../model/params.js';
import { NonFiniteError } from '../model/sampling.js';
import { Rng, type RngState } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import { usesCritic } from './algorithms.js';
import { trainingSamples } from './batch.js';
import { type EnvPool, streamInstance } from './envPool.js';
import { estimatorOf } from './estimators.js';
import { EVAL_SEED_BASE, type EvalResult, evaluatePolicy } from './evaluate.js';
import { faultSuggestion, MAX_CONSECUTIVE_FAULTS, weightsFinite } from './faults.js';
import { groupsToRollOut } from './filter.js';
import { type FilterRollout, keptTrajectories, rollOutForFilter } from './filterRollout.js';
import { isFrozenControl } from './frozenControl.js';
import { objectiveOf } from './objectives.js';
import { type UpdateReport, updateMetrics } from './optimize.js';
import { computeAdvantages, scoreSamples } from './prepare.js';
import { type RolloutStart, rollout, type Trajectory } from './rollout.js';

export type TrainerEvent =
  | ({ type: 'echo' } & EchoEvent)
  | {
      type: 'error';
      iteration: number;
      message: string;
      /** Non-finite iterations in a row, this one included. */
      consecutive: number;
      /** Set on the MAX_CONSECUTIVE_FAULTS-th in a row: the run stops until a live setting changes. */
      pause?: boolean;
      /** What to change, e.g. "lower the learning rate (now 0.01) to 0.003". */
      suggestion?: string;
    }
  | { type: 'live'; iteration: number; changes: Partial<Config> };

/**
 * RAGEN-2's cross-scoring matrix of an iteration where the MI proxy was computed: row i is the
 * i-th reasoning sample scored under every prompt j (log p(z_i | x_j), the thinking's tokens only).
 */
export interface MiSnapshot {
  matrix: number[][];
  /** The end of each prompt (the state the thinking was written for), for labels. */
  prompts: string[];
  /** Each reasoning sample's text. */
  thinks: string[];
  mi: number;
  retrievalAcc: number;
}

/** One rollout's first turn: what it thought and what it did first. */
export interface FirstTurn {
  think: string;
  action: string;
  success: boolean;
}

/**
 * The reasoning across inputs of an iteration (the reasoning panel): for each paired group (the
 * first P), its start seed, its rollouts' first turns, and — on iterations where the MI proxy is
 * computed — the frozen base model's first turns from the same start seed (sampled at the same
 * temperature on a stream of its own, so the run's own rows do not change).
 */
export interface ReasoningSnapshot {
  groups: { seed: number; rollouts: FirstTurn[]; base?: FirstTurn[] }[];
}

/** A trajectory as plain data for the viewer. */
export interface SampledTrajectory {
  iteration: number;
  group: number;
  seed: number;
  instruction: string;
  reward: number;
  success: boolean;
  /** The iteration's cross-scoring matrix, on iterations where the MI proxy was computed. */
  mi?: MiSnapshot;
  /** Every paired group's first turns this iteration (and the frozen base's, every MI iteration). */
  reasoning?: ReasoningSnapshot;
  turns: {
    observation: string;
    responseText: string;
    tokens: string[];
    logps: number[];
    actions: string[];
    valid: boolean[];
    reward: number;
    penalised: boolean;
    /** The actions left shown at the turn's start (absent in samples stored before it was kept). */
    actionsLeft?: number;
  }[];
}

export interface TrainerCallbacks {
  onMetrics?(row: MetricRow): void;
  onEvent?(event: TrainerEvent): void;
  onSample?(sample: SampledTrajectory): void;
  onCheckpoint?(iteration: number): void | Promise<void>;
}

export interface TrainerSetup {
  config: Config;
  tokenizer: Tokenizer;
  /** The policy to train (the base model's weights); the trainer clones the reference from it. */
  policy: Model;
  /** A critic of the same shape, when the algorithm uses one. */
  critic: Model | null;
  pool: EnvPool;
  evalPool: EnvPool;
  callbacks?: TrainerCallbacks;
}

/** Fields that may change mid-run (marked `live` in the field table). */
export const LIVE_FIELDS: ReadonlySet<string> = new Set(FIELDS.filter((f) => f.live).map((f) => f.key));

/**
 * The start seed of group `g` in iteration `it` of a run whose start-seed root is `root`
 * (`new Rng(seed).fork('train-seeds')`): a pure function of the three, in [0, EVAL_SEED_BASE), so
 * training never starts from a held-out seed.
 */
export function startSeedOf(root: Rng, it: number, g: number): number {
  return root.fork(`${it}/${g}`).int(0, EVAL_SEED_BASE);
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

/**
 * Where a run is, beyond its weights: what a checkpoint must carry for a resumed run to write the
 * rows the uninterrupted run would have written (counters, live settings, random streams, Adam).
 */
export interface TrainingState {
  /** Plain data (JSON): the counters, the live settings and the random streams' positions. */
  position: TrainerPosition;
  optimizers: { policy: AdamState; critic?: AdamState };
}

export interface TrainerPosition {
  iteration: number;
  policyUpdates: number;
  consecutiveErrors: number;
  unconfirmedUpdate: boolean;
  /** The live settings as they stand (a run's live changes persist across a resume). */
  live: Record<string, unknown>;
  rng: Record<StreamName, RngState>;
}

type StreamName = 'sampling' | 'minibatches' | 'filter' | 'baseReasoning';
const STREAMS: readonly StreamName[] = ['sampling', 'minibatches', 'filter', 'baseReasoning'];

/** A position read from a checkpoint file, checked field by field (a message names the first bad one). */
export function parseTrainerPosition(raw: unknown): TrainerPosition {
  const p = raw as Partial<TrainerPosition> | null;
  const count = (k: 'iteration' | 'policyUpdates' | 'consecutiveErrors') => {
    const v = p?.[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new Error(
        `checkpoint: training position ${k} must be a whole number ≥ 0, got ${JSON.stringify(v)}`,
      );
  };
  if (!p || typeof p !== 'object') throw new Error('checkpoint: training position is not an object');
  count('iteration');
  count('policyUpdates');
  count('consecutiveErrors');
  if (typeof p.unconfirmedUpdate !== 'boolean')
    throw new Error('checkpoint: training position unconfirmedUpdate must be true or false');
  if (!p.live || typeof p.live !== 'object') throw new Error('checkpoint: training position live is missing');
  const bad = Object.keys(p.live).filter((k) => !LIVE_FIELDS.has(k));
  if (bad.length > 0)
    throw new Error(`checkpoint: training position live has ${bad.join(', ')}, not live settings`);
  for (const name of STREAMS) {
    const st = p.rng?.[name];
    if (!st || !Array.isArray(st.s)) throw new Error(`checkpoint: training position rng.${name} is missing`);
    new Rng(0).restore(st); // throws, naming what is wrong
  }
  return p as TrainerPosition;
}

export class Trainer {
  config: Config;
  iteration = 0;
  /** The echo-trap detector, its noise bound sized to this run's P × N rollouts per iteration. */
  readonly detector: EchoTrapDetector;
  private readonly tok: Tokenizer;
  private readonly policy: Model;
  private readonly reference: Model;
  private readonly critic: Model | null;
  private readonly backupPolicy: Model;
  private readonly backupCritic: Model | null;
  private readonly policyOpt: tf.Optimizer;
  private readonly criticOpt: tf.Optimizer | null;
  /** Root of the start-seed derivation: a group's start seed is a function of (run seed, iteration, group). */
  private readonly seedRoot: Rng;
  /** The fixed training start seeds when `startPool` > 0 (empty: a fresh seed per group). */
  private readonly startSeeds: number[];
  private readonly sampleRng: Rng;
  private readonly shuffleRng: Rng;
  /** Draws the kept groups of the `random` filter order. */
  private readonly filterRng: Rng;
  /** Samples the frozen base's reasoning for the reasoning panel (never the run's own streams). */
  private readonly baseRng: Rng;
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
    this.critic = usesCritic(setup.config) ? setup.critic : null;
    if (usesCritic(setup.config) && !setup.critic)
      throw new Error(`${setup.config.algorithm} needs a critic`);
    this.backupPolicy = cloneModel(setup.policy, false);
    this.backupCritic = this.critic ? cloneModel(this.critic, false) : null;
    const eps = setup.config.adamEpsilon;
    this.policyOpt = tf.train.adam(setup.config.lr, 0.9, 0.999, eps);
    this.criticOpt = this.critic ? tf.train.adam(setup.config.criticLr, 0.9, 0.999, eps) : null;
    const rng = new Rng(setup.config.seed);
    this.seedRoot = rng.fork('train-seeds');
    const poolRng = rng.fork('train-pool');
    this.startSeeds = Array.from({ length: setup.config.startPool }, () => poolRng.int(0, EVAL_SEED_BASE));
    this.sampleRng = rng.fork('sampling');
    this.shuffleRng = rng.fork('minibatches');
    this.filterRng = rng.fork('filter');
    this.baseRng = rng.fork('base-reasoning');
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
    const live = Object.fromEntries(
      [...LIVE_FIELDS].map((k) => [k, (this.config as unknown as Record<string, unknown>)[k]]),
    );
    const rngs: Record<StreamName, Rng> = {
      sampling: this.sampleRng,
      minibatches: this.shuffleRng,
      filter: this.filterRng,
      baseReasoning: this.baseRng,
    };
    return {
      position: {
        iteration: this.iteration,
        policyUpdates: this.policyUpdates,
        consecutiveErrors: this.consecutiveErrors,
        unconfirmedUpdate: this.unconfirmedUpdate,
        live,
        rng: Object.fromEntries(STREAMS.map((n) => [n, rngs[n].state()])) as Record<StreamName, RngState>,
      },
      optimizers: {
        policy: await readAdamState(this.policyOpt, this.policy),
        ...(this.critic && this.criticOpt
          ? { critic: await readAdamState(this.criticOpt, this.critic) }
          : {}),
      },
    };
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
    if (training) {
      const p = training.position;
      if (p.iteration !== iteration)
        throw new Error(
          `resume: the training state is at iteration ${p.iteration}, the checkpoint at ${iteration}`,
        );
      const r = validateConfig({ ...this.config, ...p.live });
      if (!r.ok) throw new Error(`resume: ${formatErrors(r.errors)}`);
      this.config = r.config;
      writeAdamState(this.policyOpt, this.policy, training.optimizers.policy);
      if (this.critic && this.criticOpt) {
        if (!training.optimizers.critic)
          throw new Error('resume: the training state has no critic optimizer');
        writeAdamState(this.criticOpt, this.critic, training.optimizers.critic);
      }
      this.sampleRng.restore(p.rng.sampling);
      this.shuffleRng.restore(p.rng.minibatches);
      this.filterRng.restore(p.rng.filter);
      this.baseRng.restore(p.rng.baseReasoning);
      this.policyUpdates = p.policyUpdates;
      this.consecutiveErrors = p.consecutiveErrors;
      this.unconfirmedUpdate = p.unconfirmedUpdate;
    } else {
      this.policyUpdates = this.critic ? Math.max(0, iteration - this.config.criticWarmup) : iteration;
    }
    this.iteration = iteration;
    copyWeights(this.backupPolicy, this.policy);
    if (this.critic && this.backupCritic) copyWeights(this.backupCritic, this.critic);
    for (const row of rows) if (row.iteration < iteration) this.detector.update(row);
  }

  /**
   * The policy's step size for its next update: with an LR warm-up, a linear ramp over the first
   * `lrWarmup` share of the run's policy updates, counted in updates (iterations spent on critic
   * warm-up do not consume it).
   */
  private learningRate(): number {
    return warmupLearningRate(this.config, this.policyUpdates);
  }

  private settings(temperature: number) {
    const c = this.config;
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

  /** Success rates on the held-out seeds, greedy and at temperature 1. */
  async evaluate(): Promise<EvalResult> {
    const { temperature: _t, ...settings } = this.settings(0);
    return evaluatePolicy(
      this.policy,
      this.tok,
      this.evalPool,
      settings,
      this.config.evalEpisodes,
      this.config.seed,
    );
  }

  /** Goes back to the weights saved before the last update (the last good ones). */
  private restoreWeights(): void {
    copyWeights(this.policy, this.backupPolicy);
    if (this.critic && this.backupCritic) copyWeights(this.critic, this.backupCritic);
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
      this.restoreWeights();
      this.unconfirmedUpdate = false;
      this.iteration = it + 1;
      this.fault(it, `${err.message}; weights restored to the last good ones`);
      return { iteration: it };
    }
  }

  /**
   * Group g's start seed in iteration `it`: derived from (run seed, iteration, group) alone, so
   * every arm of a comparison, whatever it rolls out (an oversampling arm rolls out ⌈P/ratio⌉
   * groups), sees the same first P start states in every iteration; or, with a start pool, the
   * next seeds of the pool in turn (a pool of P seeds gives every iteration the same P goals).
   */
  private startSeed(it: number, g: number, rolled: number): number {
    const pool = this.startSeeds;
    if (pool.length === 0) return startSeedOf(this.seedRoot, it, g);
    return pool[(it * rolled + g) % pool.length] as number;
  }

  /** Groups `from` … `from + count − 1` of iteration `it`, N rollouts each. */
  private rolloutGroups(it: number, from: number, count: number) {
    const c = this.config;
    const starts: RolloutStart[] = [];
    for (let g = from; g < from + count; g++) {
      const seed = this.startSeed(it, g, groupsToRollOut(c.groups, c.filterMode, c.filterRatio));
      for (let k = 0; k < c.groupSize; k++)
        starts.push({ group: g, seed, instance: streamInstance(c.groupStreams, k) });
    }
    return rollout(this.policy, this.tok, this.pool, starts, this.settings(c.temperature), this.sampleRng);
  }

  private async iterate(): Promise<MetricRow> {
    const c = this.config;
    const it = this.iteration;
    const row: MetricRow = { iteration: it };
    const t0 = now();

    // 1. Rollout: P groups × N rollouts (⌈P/ratio⌉ groups when oversampling), each group from
    // one seed and, with shared streams, one env random stream (RAGEN's _expand_seed). DAPO's
    // dynamic sampling rolls out P more groups while fewer than P have any reward spread.
    const rolledOut = await rollOutForFilter(c, (from, count) => this.rolloutGroups(it, from, count));
    const { trajectories, stats } = rolledOut;
    const rolloutMs = now() - t0;
    if (this.unconfirmedUpdate) {
      this.consecutiveErrors = 0;
      this.unconfirmedUpdate = false;
    }
    Object.assign(row, rolloutMetrics(trajectories, this.tok.special['</think>']));
    Object.assign(row, pairedSuccess(trajectories, c.groups));

    // 2. Periodic evaluation and reasoning MI, before any update: iteration `it`'s measurements
    // describe the policy that made its rollouts (iteration 0's are the base model's).
    const m0 = now();
    if (c.evalEvery > 0 && (it % c.evalEvery === 0 || it === c.iterations - 1)) {
      const e = await this.evaluate();
      row['eval/successRate'] = e.greedy;
      row['eval/sampledSuccessRate'] = e.sampled;
    }
    let mi: MiSnapshot | undefined;
    if (c.miEvery > 0 && it % c.miEvery === 0) {
      const pairs = miPairs(trajectories, c.miSamples, this.tok.special['</think>']);
      const r = await reasoningMi(this.policy, pairs, { temperature: c.temperature });
      row['reasoning/mi'] = r.mi;
      row['reasoning/retrievalAcc'] = r.retrievalAcc;
      row['reasoning/miPrompts'] = r.n;
      if (r.matrix.length > 0)
        mi = {
          matrix: r.matrix,
          prompts: r.pairs.map((p) => this.tok.decode(p.promptIds.slice(-24))),
          thinks: r.pairs.map((p) => this.tok.decode(p.thinkIds)),
          mi: r.mi,
          retrievalAcc: r.retrievalAcc,
        };
    }
    const measureMs = now() - m0;

    // 3–5. Filter, score, advantages, update — skipped by a frozen control (lr 0): its policy
    // cannot move, so the iteration is a rollout and its measurements, at a fraction of the cost.
    const u0 = now();
    if (!isFrozenControl(c)) await this.learn(row, rolledOut, it);
    else {
      row['rollout/filterKeptRatio'] = 1;
      row['actor/optimizerSteps'] = 0;
      row['actor/samplesPerStep'] = 0;
    }
    const updateMs = now() - u0;

    row['time/rolloutMs'] = rolloutMs;
    row['time/updateMs'] = updateMs;
    row['time/measureMs'] = measureMs;
    row['perf/tokensPerSec'] = stats.sampleMs > 0 ? (1000 * stats.tokens) / stats.sampleMs : 0;
    row['perf/envStepsPerSec'] = stats.envMs > 0 ? (1000 * stats.envSteps) / stats.envMs : 0;
    row['memory/numTensors'] = tf.memory().numTensors;
    row['memory/gpuBytes'] = gpuBytes();

    this.cb.onMetrics?.(row);
    for (const e of this.detector.update(row)) this.cb.onEvent?.({ type: 'echo', ...e });
    // The sample (with the frozen base's reasoning on MI iterations: one more rollout) only for
    // a caller that takes samples — the page; the command line's runs skip its cost.
    if (this.cb.onSample) {
      const reasoning = await this.reasoningOf(trajectories, c.miEvery > 0 && it % c.miEvery === 0);
      this.cb.onSample({ ...this.sampleOf(trajectories, it), ...(mi ? { mi } : {}), reasoning });
    }
    this.iteration++;
    if (c.checkpointEvery > 0 && this.iteration % c.checkpointEvery === 0)
      await this.cb.onCheckpoint?.(this.iteration);
    return row;
  }

  /**
   * The learning half of an iteration (steps 2–4): the StarPO-S filter, the samples and their
   * scores, advantages, and the update from a snapshot the weights can return to.
   */
  private async learn(row: MetricRow, rolledOut: FilterRollout, it: number): Promise<void> {
    const c = this.config;
    // 2. The rollout filter (filter.ts FILTERS: StarPO-S, top-p, dynamic sampling), then the 2σ drop.
    const { kept, keptRatio } = keptTrajectories(rolledOut, c, this.filterRng);
    row['rollout/filterKeptRatio'] = keptRatio;
    // Nothing kept (the top-p or dynamic filter found no group with any reward spread): no update.
    if (kept.length === 0) {
      row['actor/optimizerSteps'] = 0;
      row['actor/samplesPerStep'] = 0;
      return;
    }

    // 3. Samples, scores, advantages.
    // Windows of the turns the rollout prompts kept (DPO sums a trajectory's windows).
    const samples = trainingSamples(this.tok, kept, c);
    // The policy still has the weights that sampled: its old log-probs come from the sampler.
    const scores = await scoreSamples(samples, this.policy, this.reference, this.critic, c.temperature, {
      sampled: true,
    });
    const { prepared, stats: prep } = computeAdvantages(samples, scores, kept, c);
    row['actor/klRef'] = prep.klRef;
    if (this.critic) row['critic/explainedVar'] = prep.explainedVar;

    // 4. Update, from a snapshot we can return to.
    copyWeights(this.backupPolicy, this.policy);
    if (this.critic && this.backupCritic) copyWeights(this.backupCritic, this.critic);
    const trainPolicy = it >= c.criticWarmup || !this.critic;
    (this.policyOpt as unknown as { learningRate: number }).learningRate = this.learningRate();
    if (trainPolicy) this.policyUpdates++;
    const report: UpdateReport = await objectiveOf(c).update(
      prepared,
      { policy: this.policy, critic: this.critic, policyOpt: this.policyOpt, criticOpt: this.criticOpt },
      c,
      trainPolicy,
      this.shuffleRng,
    );
    // Finite losses and gradients can still step into NaN/Inf weights (a huge learning rate).
    if (!report.nonFinite && !(await weightsFinite([this.policy, this.critic])))
      report.nonFinite = 'the weights were not finite after the update';
    if (report.nonFinite) {
      this.restoreWeights();
      this.unconfirmedUpdate = false;
      this.fault(
        it,
        `non-finite update skipped (${report.nonFinite}); weights restored to the start of iteration ${it}`,
      );
    } else {
      this.unconfirmedUpdate = true;
    }
    Object.assign(row, updateMetrics(report));
  }

  /**
   * Iterates until the planned count, until `shouldStop` says so (checked between iterations), or
   * until repeated non-finite iterations pause the run (`haltReason` then says why).
   */
  async run(shouldStop: () => boolean = () => false): Promise<RunSummary> {
    while (this.iteration < this.config.iterations && !shouldStop() && !this.haltReason) await this.step();
    return this.detector.summary();
  }

  /**
   * The paired groups' first turns, and with `withBase` the frozen base model's from the same
   * start seeds (one rollout of N per group on the base's own random stream).
   */
  private async reasoningOf(trajs: readonly Trajectory[], withBase: boolean): Promise<ReasoningSnapshot> {
    const c = this.config;
    const first = (t: Trajectory): FirstTurn => ({
      think: t.turns[0]?.parsed.think ?? '',
      action: (t.turns[0]?.actions[0] ?? '(none)').toLowerCase().trim(),
      success: t.success,
    });
    const groups: ReasoningSnapshot['groups'] = [];
    for (let g = 0; g < c.groups; g++) {
      const ts = trajs.filter((t) => t.group === g);
      if (ts.length > 0) groups.push({ seed: (ts[0] as Trajectory).seed, rollouts: ts.map(first) });
    }
    if (withBase && groups.length > 0) {
      const starts: RolloutStart[] = groups.flatMap((gr, g) =>
        Array.from({ length: c.groupSize }, (_, k) => ({
          group: g,
          seed: gr.seed,
          instance: streamInstance(c.groupStreams, k),
        })),
      );
      const { trajectories } = await rollout(
        this.reference,
        this.tok,
        this.pool,
        starts,
        this.settings(c.temperature),
        this.baseRng,
      );
      groups.forEach((gr, g) => {
        gr.base = trajectories.filter((t) => t.group === g).map(first);
      });
    }
    return { groups };
  }

  private sampleOf(trajs: readonly Trajectory[], iteration: number): SampledTrajectory {
    const t = trajs[0] as Trajectory;
    return {
      iteration,
      group: t.group,
      seed: t.seed,
      instruction: t.instruction,
      reward: t.reward,
      success: t.success,
      turns: t.turns.map((turn) => ({
        observation: turn.observation,
        responseText: turn.responseText,
        tokens: this.tok.tokenStrings(turn.responseIds),
        logps: turn.logps,
        actions: turn.actions,
        valid: turn.outcomes.map((o) => o.valid),
        reward: turn.reward,
        penalised: turn.penalised,
        actionsLeft: turn.actionsLeft,
      })),
    };
  }

  summary(): RunSummary {
    return this.detector.summary();
  }

  /** Frees the trainer's own tensors (reference, backups, optimizers), not the policy or critic. */
  dispose(): void {
    disposeModel(this.reference);
    disposeModel(this.backupPolicy);
    if (this.backupCritic) disposeModel(this.backupCritic);
    this.policyOpt.dispose();
    this.criticOpt?.dispose();
  }
}
