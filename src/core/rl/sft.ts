// Supervised fine-tuning on demonstrations, to make base models (DESIGN §4): each demo becomes
// token sequences laid out exactly as the rollout will prompt the agent (same history cut), and
// the loss is the token-mean negative log-likelihood of the agent's tokens.
import * as tf from '@tensorflow/tfjs';
import { fusedAdamActive, fusedMinimize } from '../model/kernels/adam.js';
import { type Model, modelVariables } from '../model/params.js';
import { bucketLength, padRows, policyLogProbs } from '../model/scoring.js';
import { buildSequence, type PromptTurn } from '../prompt.js';
import type { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import { maskedMean } from './losses.js';

export interface SftExample {
  instruction: string;
  /** Every turn with its response text and reward. */
  turns: PromptTurn[];
}

export interface SftSequence {
  ids: number[];
  /** [n−1] target mask of the agent's tokens. */
  mask: Float32Array;
}

/**
 * Windows of each example as the rollout shows them: for k = h−1, 2h−1, … and the last turn,
 * the turns up to k with the last `historyTurns` kept, so every response is trained on once.
 */
export function sftSequences(
  tok: Tokenizer,
  examples: readonly SftExample[],
  historyTurns: number,
  contextLength: number,
): SftSequence[] {
  const out: SftSequence[] = [];
  for (const ex of examples) {
    const n = ex.turns.length;
    const ends: number[] = [];
    for (let k = historyTurns - 1; k < n; k += historyTurns) ends.push(k);
    if (ends[ends.length - 1] !== n - 1) ends.push(n - 1);
    for (const k of ends) {
      const seq = buildSequence(tok, ex.instruction, ex.turns.slice(0, k + 1), {
        historyTurns,
        maxTokens: contextLength,
      });
      const mask = new Float32Array(seq.ids.length - 1);
      for (let t = 0; t + 1 < seq.ids.length; t++) mask[t] = seq.agentMask[t + 1] as number;
      out.push({ ids: seq.ids, mask });
    }
  }
  return out;
}

export interface SftOptions {
  steps: number;
  batchSize: number;
  lr: number;
  epsilon: number;
  rng: Rng;
  /** Called after each step with the step's loss (read back once per step). */
  onStep?(step: number, loss: number): void;
}

/** Trains `policy` in place; resolves to the per-step losses. */
export async function sftTrain(
  policy: Model,
  sequences: readonly SftSequence[],
  o: SftOptions,
): Promise<number[]> {
  if (sequences.length === 0) throw new Error('sftTrain: no sequences');
  const optimizer = tf.train.adam(o.lr, 0.9, 0.999, o.epsilon);
  const vars = modelVariables(policy);
  const losses: number[] = [];
  try {
    for (let step = 0; step < o.steps; step++) {
      const batch = Array.from({ length: Math.min(o.batchSize, sequences.length) }, () =>
        o.rng.choice(sequences),
      );
      const T = bucketLength(Math.max(...batch.map((s) => s.ids.length)), policy.config.context);
      const maskFlat = new Float32Array(batch.length * (T - 1));
      for (const [b, s] of batch.entries()) maskFlat.set(s.mask, b * (T - 1));
      const tokens = tf.tensor2d(
        padRows(
          batch.map((s) => s.ids),
          T,
          0,
        ),
        [batch.length, T],
        'int32',
      );
      const mask = tf.tensor2d(maskFlat, [batch.length, T - 1]);
      const nll = () => {
        const { logp, entropy } = policyLogProbs(policy, tokens);
        entropy.dispose();
        return tf.neg(maskedMean(logp, mask)) as tf.Scalar;
      };
      // webgpu: the fused Adam step (model/kernels/adam.ts); elsewhere tfjs's own.
      const loss = fusedAdamActive(optimizer)
        ? fusedMinimize(optimizer, nll, vars)
        : optimizer.minimize(nll, true, vars);
      const value = loss ? ((await loss.data())[0] as number) : Number.NaN;
      tf.dispose([tokens, mask, loss as tf.Tensor]);
      if (!Number.isFinite(value))
        throw new Error(`sftTrain: loss became ${value} at step ${step}; lower the learning rate`);
      losses.push(value);
      o.onStep?.(step, value);
    }
  } finally {
    optimizer.dispose();
  }
  return losses;
}
