// The periodic measurements of an iteration, taken before any update so that iteration `it`'s
// describe the policy that made its rollouts (iteration 0's: the base model's): success on the
// held-out seeds (evaluate.ts), every `evalEvery` iterations and at the last, and RAGEN-2's
// reasoning MI proxy (metrics/mi.ts) with its cross-scoring matrix, every `miEvery`. What is due
// (measureRequest), taking it (takeMeasurements: in this thread, or in a second worker with a copy
// of the policy) and writing it into the row (writeMeasurements) are apart so the second can move.
import type { Config } from '../config.js';
import type { MetricRow } from '../metrics/keys.js';
import { type MiResult, miPairs, type ReasoningPair, reasoningMi } from '../metrics/mi.js';
import type { Model } from '../model/params.js';
import type { Tokenizer } from '../tokenizer.js';
import type { EnvPool } from './envPool.js';
import { type EvalResult, evaluatePolicy } from './evaluate.js';
import type { Trajectory } from './rollout.js';
import { rolloutSettings } from './runSchedule.js';
import { type MiSnapshot, miSnapshotOf } from './viewerSample.js';

/** Whether iteration `it` evaluates on the held-out seeds. */
export const evalDue = (c: Pick<Config, 'evalEvery' | 'iterations'>, it: number): boolean =>
  c.evalEvery > 0 && (it % c.evalEvery === 0 || it === c.iterations - 1);

/** Whether iteration `it` computes the reasoning MI proxy (and the page gets the base's reasoning). */
export const miDue = (c: Pick<Config, 'miEvery'>, it: number): boolean =>
  c.miEvery > 0 && it % c.miEvery === 0;

/** Success rates of `policy` on the held-out seeds, greedy and at temperature 1. */
export function evaluateOn(policy: Model, tok: Tokenizer, evalPool: EnvPool, c: Config): Promise<EvalResult> {
  const { temperature: _t, ...settings } = rolloutSettings(c, 0);
  return evaluatePolicy(policy, tok, evalPool, settings, c.evalEpisodes, c.seed);
}

/** What iteration `it` measures: the held-out evaluation, and the MI proxy's prompt/thinking pairs. */
export interface MeasureRequest {
  evaluate: boolean;
  /** The MI proxy's pairs (null: no MI this iteration). */
  pairs: ReasoningPair[] | null;
}

/** What a measurement found (each only when it was asked for). */
export interface Measured {
  eval?: EvalResult;
  mi?: MiResult;
}

/** Iteration `it`'s measurements from its rollouts `trajectories`; null when none is due. */
export function measureRequest(
  trajectories: readonly Trajectory[],
  it: number,
  c: Config,
  tok: Tokenizer,
): MeasureRequest | null {
  const evaluate = evalDue(c, it);
  const pairs = miDue(c, it) ? miPairs(trajectories, c.miSamples, tok.special['</think>']) : null;
  return evaluate || pairs ? { evaluate, pairs } : null;
}

/** Takes the measurements `req` asks for of `policy` (here, or in a second worker with its copy). */
export async function takeMeasurements(
  req: MeasureRequest,
  c: Config,
  m: { policy: Model; tok: Tokenizer; evalPool: EnvPool },
): Promise<Measured> {
  const out: Measured = {};
  if (req.evaluate) out.eval = await evaluateOn(m.policy, m.tok, m.evalPool, c);
  if (req.pairs) out.mi = await reasoningMi(m.policy, req.pairs, { temperature: c.temperature });
  return out;
}

/**
 * The measurements into `row` (eval/*, reasoning/*); returns the MI proxy's matrix on iterations
 * that computed one.
 */
export function writeMeasurements(
  row: MetricRow,
  measured: Measured,
  tok: Tokenizer,
): MiSnapshot | undefined {
  if (measured.eval) {
    row['eval/successRate'] = measured.eval.greedy;
    row['eval/sampledSuccessRate'] = measured.eval.sampled;
  }
  const r = measured.mi;
  if (!r) return undefined;
  row['reasoning/mi'] = r.mi;
  row['reasoning/retrievalAcc'] = r.retrievalAcc;
  row['reasoning/miPrompts'] = r.n;
  return miSnapshotOf(r, tok);
}

/** The measurements of a policy in a second worker (a run without a critic; referenceHost.ts). */
export interface MeasureApart {
  /** `req`'s measurements of a policy with `weights` (its variables in `names` order), under `c`. */
  measure(weights: Float32Array[], req: MeasureRequest, c: Config): Promise<Measured>;
}
