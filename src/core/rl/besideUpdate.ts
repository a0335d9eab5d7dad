// What an iteration does beside its update (issue 40): the periodic measurements (measure.ts) and,
// for the page's reasoning panel, the frozen base's rollouts on MI iterations. In one thread they
// run before the update and when the sample is made; a run without a critic on two workers starts
// them in its second worker (referenceHost.ts) — from a copy of the weights that made the
// rollouts, and from the base-reasoning stream's position — and awaits them after the update.
import type { Config } from '../config.js';
import { type Model, weightValues } from '../model/params.js';
import type { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import type { EnvPool } from './envPool.js';
import { isFrozenControl } from './frozenControl.js';
import { type Measured, measureRequest, miDue, takeMeasurements } from './measure.js';
import { orThisThread, type ReferenceApart, type ReferenceHostFactory } from './referenceHost.js';
import type { RolloutStart, Trajectory } from './rollout.js';
import { rolloutSettings } from './runSchedule.js';
import { type BaseRollout, baseStartsOf } from './viewerSample.js';

/** What the work beside the update reads: the run's models, tokenizer, envs, and its second worker. */
export interface BesideParts {
  policy: Model;
  reference: Model;
  tok: Tokenizer;
  pool: EnvPool;
  evalPool: EnvPool;
  /** The reference's copy in a second worker (a run without a critic, on two workers); else null. */
  apart: ReferenceApart | null;
  /** The base model's rollouts from `starts` in this thread, on the run's envs and temperature. */
  rollOutBase(starts: RolloutStart[], rng: Rng): Promise<readonly Trajectory[]>;
}

/**
 * The second worker of a run without a critic, made by `host`, or null (a run with a critic, or
 * one worker). One that fails leaves its share to this thread, the same numbers in more time, and
 * `warn` says so once.
 */
export function secondWorkerOf(
  host: ReferenceHostFactory | undefined,
  here: { reference: Model; tok: Tokenizer; pool: EnvPool; evalPool: EnvPool },
  warn: (message: string) => void,
): ReferenceApart | null {
  if (!host) return null;
  return orThisThread(host(here.reference, here.tok), here, (err) =>
    warn(`the second worker failed; this thread takes its share: ${err.message}`),
  );
}

/**
 * Iteration `it`'s measurements, if any are due: taken here (`measured`), or started in the second
 * worker, to be awaited after the update (`measuring`).
 */
export async function startMeasurements(
  m: BesideParts,
  trajectories: readonly Trajectory[],
  it: number,
  c: Config,
): Promise<{ measured: Measured; measuring: Promise<Measured> | null }> {
  const request = measureRequest(trajectories, it, c, m.tok);
  if (!request) return { measured: {}, measuring: null };
  if (m.apart && !isFrozenControl(c)) {
    const measuring = m.apart.measure(await weightValues(m.policy), request, c);
    measuring.catch(() => {}); // awaited after the update; a failure fails the iteration there
    return { measured: {}, measuring };
  }
  const models = { policy: m.policy, tok: m.tok, evalPool: m.evalPool };
  return { measured: await takeMeasurements(request, c, models), measuring: null };
}

/**
 * The frozen base's rollouts for the reasoning panel on MI iterations (null on others): rolled out
 * here when the sample is made, or started now in the second worker from `stream`'s position,
 * which takes the position the worker's stream ended at when they are read.
 */
export function startBaseReasoning(
  m: BesideParts,
  trajectories: readonly Trajectory[],
  it: number,
  c: Config,
  stream: Rng,
): BaseRollout | null {
  if (!miDue(c, it)) return null;
  const starts = baseStartsOf(trajectories, c);
  if (!m.apart || starts.length === 0) return (from) => m.rollOutBase(from, stream);
  const at = { seed: stream.seed, state: stream.state() };
  const pending = m.apart.rollOut(starts, rolloutSettings(c, c.temperature), c.env, at);
  pending.catch(() => {}); // awaited when the sample is made; a failure fails the iteration there
  return async () => {
    const r = await pending;
    stream.restore(r.rng);
    return r.trajectories;
  };
}
