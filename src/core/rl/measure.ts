// The periodic measurements of an iteration, taken before any update so that iteration `it`'s
// describe the policy that made its rollouts (iteration 0's: the base model's): success on the
// held-out seeds (evaluate.ts), every `evalEvery` iterations and at the last, and RAGEN-2's
// reasoning MI proxy (metrics/mi.ts) with its cross-scoring matrix, every `miEvery`.
import type { Config } from '../config.js';
import type { MetricRow } from '../metrics/keys.js';
import { miPairs, reasoningMi } from '../metrics/mi.js';
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

/**
 * Iteration `it`'s measurements of `policy` into `row` (eval/*, reasoning/*), from its rollouts
 * `trajectories`; returns the MI proxy's matrix on iterations that computed one.
 */
export async function measureIteration(
  row: MetricRow,
  trajectories: readonly Trajectory[],
  it: number,
  c: Config,
  m: { policy: Model; tok: Tokenizer; evalPool: EnvPool },
): Promise<MiSnapshot | undefined> {
  if (evalDue(c, it)) {
    const e = await evaluateOn(m.policy, m.tok, m.evalPool, c);
    row['eval/successRate'] = e.greedy;
    row['eval/sampledSuccessRate'] = e.sampled;
  }
  if (!miDue(c, it)) return undefined;
  const pairs = miPairs(trajectories, c.miSamples, m.tok.special['</think>']);
  const r = await reasoningMi(m.policy, pairs, { temperature: c.temperature });
  row['reasoning/mi'] = r.mi;
  row['reasoning/retrievalAcc'] = r.retrievalAcc;
  row['reasoning/miPrompts'] = r.n;
  return miSnapshotOf(r, m.tok);
}
