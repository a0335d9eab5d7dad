// The critic's worker side (issue 40): holds the critic's weights, its Adam optimizer and its
// snapshot, and answers criticPort.ts's messages one at a time, in the order they came. Steps go
// through the same CriticStepRun as the serial schedule's critic, so the numbers are the same.
// A message that needs no answer and fails is answered with the next one that does.
import * as tf from '@tensorflow/tfjs';
import { readAdamState, writeAdamState } from '../model/adamState.js';
import { cloneModel, copyWeights, disposeModel, type Model, modelFromValues } from '../model/params.js';
import { CriticStepRun, criticOptimizer, criticValues } from './criticHost.js';
import type { FromCritic, ToCritic } from './criticPort.js';
import { weightsFinite } from './faults.js';

interface Held {
  model: Model;
  copy: Model;
  optimizer: tf.Optimizer;
  run: CriticStepRun | null;
}

function load(model: Model, weights: readonly Float32Array[]): void {
  model.names.forEach((name, i) => {
    const v = model.weights[name] as tf.Variable;
    const t = tf.tensor(weights[i] as Float32Array, v.shape, 'float32');
    v.assign(t);
    t.dispose();
  });
}

/** Answers one message; what it returns is the answer's value (for messages with an id). */
async function handle(msg: ToCritic, held: Held | null): Promise<{ held: Held | null; value?: unknown }> {
  if (msg.op === 'init') {
    if (held) dispose(held);
    // The weights come in the model's `names` order, which is the order its specs are made in.
    let i = 0;
    const model = modelFromValues('critic', msg.config, () => msg.weights[i++] as Float32Array);
    const copy = cloneModel(model, false);
    return { held: { model, copy, optimizer: criticOptimizer(msg), run: null } };
  }
  if (!held) throw new Error(`"${msg.op}" before the critic was sent`);
  switch (msg.op) {
    case 'load':
      load(held.model, msg.weights);
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
      return { held, value: await readAdamState(held.optimizer, held.model) };
    case 'writeAdam':
      writeAdamState(held.optimizer, held.model, msg.state);
      return { held };
    case 'weights':
      return {
        held,
        value: await Promise.all(
          held.model.names.map(async (n) => (await held.model.weights[n]?.data()) as Float32Array),
        ),
      };
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
export function criticService(answer: (msg: FromCritic) => void): (msg: ToCritic) => void {
  let held: Held | null = null;
  let chain: Promise<void> = Promise.resolve();
  /** A failure of a message without an id, reported with the next answer. */
  let unreported: string | null = null;
  return (msg) => {
    chain = chain.then(async () => {
      const id = 'id' in msg ? msg.id : null;
      try {
        const r = await handle(msg, held);
        held = r.held;
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
