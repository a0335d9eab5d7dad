// The second worker's side (issue 40): holds the critic's weights, its Adam optimizer and its
// snapshot — or, for a run without a critic, a copy of the frozen reference and of the policy it
// measures — and answers criticPort.ts's messages one at a time, in the order they came. Steps go
// through the same CriticStepRun as the serial schedule's critic, so the numbers are the same.
// A message that needs no answer and fails is answered with the next one that does.
import { Adam } from '../model/adam.js';
import {
  assignWeightValues,
  cloneModel,
  copyWeights,
  disposeModel,
  type Model,
  modelFromWeightValues,
  weightValues,
} from '../model/params.js';
import { Tokenizer } from '../tokenizer.js';
import { CriticStepRun, criticValues } from './criticHost.js';
import type { FromCritic, ToCritic } from './criticPort.js';
import type { EnvPool } from './envPool.js';
import { weightsFinite } from './faults.js';
import { takeMeasurements } from './measure.js';
import { baseRollout, referenceLogps, sampleShare } from './referenceHost.js';

interface Held {
  model: Model;
  copy: Model;
  optimizer: Adam;
  run: CriticStepRun | null;
}

/** What a run without a critic keeps in its second worker: the reference, a policy to measure, the tokenizer. */
interface Aside {
  reference: Model;
  /** The policy measured or sampled last (its weights come with each `measure` and `sample`). */
  measured: Model | null;
  tok: Tokenizer;
  /** The env pools (training and held-out) by env id. */
  pools: Map<string, RunEnvPools>;
}

/** A run's two env pools: its training env's and the held-out variant's. */
export interface RunEnvPools {
  pool: EnvPool;
  evalPool: EnvPool;
}

/** Where the envs of the measurements and the base's rollouts come from (the worker's entry knows the envs). */
export interface ServiceOptions {
  pools?(env: string): RunEnvPools;
}

/** The messages of a run without a critic. */
type AsideOp = 'initReference' | 'referenceLogps' | 'measure' | 'baseRollout' | 'sample';
const ASIDE_OPS: readonly string[] = [
  'initReference',
  'referenceLogps',
  'measure',
  'baseRollout',
  'sample',
] satisfies AsideOp[];
const isAside = (msg: ToCritic): msg is Extract<ToCritic, { op: AsideOp }> => ASIDE_OPS.includes(msg.op);

/** The messages of a run without a critic: its reference's copy, its groups' log-probs, the measurements. */
async function handleAside(
  msg: Extract<ToCritic, { op: AsideOp }>,
  aside: Aside | null,
  options: ServiceOptions,
): Promise<{ aside: Aside | null; value?: unknown }> {
  if (msg.op === 'initReference') {
    if (aside) disposeAside(aside);
    const reference = modelFromWeightValues('policy', msg.config, msg.weights, false);
    return { aside: { reference, measured: null, tok: new Tokenizer(msg.vocab), pools: new Map() } };
  }
  if (!aside) throw new Error(`"${msg.op}" before the reference was sent`);
  if (msg.op === 'referenceLogps') {
    const { rows, groups, masks, temperature } = msg;
    return { aside, value: await referenceLogps(aside.reference, rows, groups, masks, temperature) };
  }
  if (msg.op === 'sample') {
    // The policy's copy kept here takes this iteration's weights (the measurements use it too).
    if (aside.measured) assignWeightValues(aside.measured, msg.weights);
    else aside.measured = modelFromWeightValues('policy', aside.reference.config, msg.weights, false);
    return { aside, value: await sampleShare(aside.measured, aside.tok, msg.share) };
  }
  const make = options.pools;
  if (!make) throw new Error('this worker has no envs to measure or roll out on');
  const env = msg.op === 'measure' ? msg.config.env : msg.env;
  let pools = aside.pools.get(env);
  if (!pools) {
    pools = make(env);
    aside.pools.set(env, pools);
  }
  if (msg.op === 'baseRollout') {
    const { starts, settings, rng } = msg;
    return { aside, value: await baseRollout(aside.reference, aside.tok, pools.pool, starts, settings, rng) };
  }
  if (aside.measured) assignWeightValues(aside.measured, msg.weights);
  else aside.measured = modelFromWeightValues('policy', aside.reference.config, msg.weights, false);
  const m = { policy: aside.measured, tok: aside.tok, evalPool: pools.evalPool };
  return { aside, value: await takeMeasurements(msg.req, msg.config, m) };
}

function disposeAside(aside: Aside): void {
  disposeModel(aside.reference);
  if (aside.measured) disposeModel(aside.measured);
}

/** Answers one message; what it returns is the answer's value (for messages with an id). */
async function handle(msg: ToCritic, held: Held | null): Promise<{ held: Held | null; value?: unknown }> {
  if (isAside(msg)) throw new Error(`"${msg.op}" is for a run without a critic`);
  if (msg.op === 'init') {
    if (held) dispose(held);
    const model = modelFromWeightValues('critic', msg.config, msg.weights);
    const copy = cloneModel(model, false);
    return { held: { model, copy, optimizer: new Adam({ epsilon: msg.epsilon }), run: null } };
  }
  if (!held) throw new Error(`"${msg.op}" before the critic was sent`);
  switch (msg.op) {
    case 'load':
      assignWeightValues(held.model, msg.weights);
      return { held };
    case 'values':
      return { held, value: await criticValues(held.model, msg.rows, msg.maxRows) };
    case 'begin':
      held.run = new CriticStepRun(held.model, held.optimizer, msg.settings);
      return { held };
    case 'step':
      if (!held.run) throw new Error('a critic step before its run began');
      await held.run.step(msg.mb, msg.microRows);
      return { held };
    case 'finish': {
      if (!held.run) throw new Error('finish before a run of steps began');
      const value = held.run.result();
      held.run = null;
      return { held, value };
    }
    case 'finite':
      return { held, value: await weightsFinite([held.model]) };
    case 'save':
      copyWeights(held.copy, held.model);
      return { held };
    case 'restore':
      copyWeights(held.model, held.copy);
      return { held };
    case 'readAdam':
      return { held, value: await held.optimizer.state(held.model) };
    case 'writeAdam':
      held.optimizer.restore(held.model, msg.state);
      return { held };
    case 'weights':
      return { held, value: await weightValues(held.model) };
    case 'dispose':
      dispose(held);
      return { held: null };
  }
}

function dispose(held: Held): void {
  held.optimizer.dispose();
  disposeModel(held.copy);
  disposeModel(held.model);
}

/**
 * The critic's side of a port: returns the function to call with each message; `answer` sends
 * the answers. Messages are handled strictly in order.
 */
export function criticService(
  answer: (msg: FromCritic) => void,
  options: ServiceOptions = {},
): (msg: ToCritic) => void {
  let held: Held | null = null;
  let aside: Aside | null = null;
  let chain: Promise<void> = Promise.resolve();
  /** A failure of a message without an id, reported with the next answer. */
  let unreported: string | null = null;
  return (msg) => {
    chain = chain.then(async () => {
      const id = 'id' in msg ? msg.id : null;
      try {
        let r: { value?: unknown };
        if (isAside(msg)) {
          const a = await handleAside(msg, aside, options);
          aside = a.aside;
          r = a;
        } else {
          const c = await handle(msg, held);
          held = c.held;
          r = c;
        }
        if (id === null) return;
        if (unreported !== null) answer({ id, error: unreported });
        else answer({ id, value: r.value });
        unreported = null;
      } catch (err) {
        const text = err instanceof Error ? err.message : String(err);
        if (id === null) unreported ??= `${msg.op}: ${text}`;
        else answer({ id, error: unreported ?? text });
        if (id !== null) unreported = null;
      }
    });
  };
}
