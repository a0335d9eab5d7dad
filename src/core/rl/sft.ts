// Supervised fine-tuning on demonstrations, to make base models (DESIGN §4): each demo becomes
// token sequences laid out exactly as the rollout will prompt the agent (same history cut), and
// the loss is the token-mean negative log-likelihood of the agent's tokens.
//
// Cost (measured on WebShop-lite, nano, wasm: bench `sft`): the LM head over every position
// and the entropy the RL scorer also computes were most of a step, while only the agent's
// tokens (~15% of a sequence) are targets. So the loss takes the trunk's hidden states at the
// target positions only (a row gather whose gradient is a scatter-add, since tfjs-wasm has no
// gather gradient) and runs the tied LM head and log-softmax on those rows alone, with no
// entropy. Batches are drawn from one length bucket, so a batch is padded to its own length.
import * as tf from '@tensorflow/tfjs';
import { fusedAdamActive, fusedMinimize } from '../model/kernels/adam.js';
import { type Model, modelVariables } from '../model/params.js';
import { bucketLength, padRows } from '../model/scoring.js';
import { forward, lmLogits } from '../model/transformer.js';
import { buildSequence, type PromptTurn } from '../prompt.js';
import type { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';

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

/**
 * Rows `idx` [M] of `x` [N, D] -> [M, D], differentiable on every backend: the gradient
 * scatter-adds dy into [N, D] (tfjs-wasm has no gradient for gather).
 */
export function selectRows(x: tf.Tensor2D, idx: tf.Tensor1D): tf.Tensor2D {
  const [N, D] = x.shape;
  const f = tf.customGrad(((xv: tf.Tensor2D, save: tf.GradSaveFunc) => {
    save([]);
    return {
      value: tf.gather(xv, idx),
      gradFunc: (dy: tf.Tensor) => tf.scatterND(idx.reshape([-1, 1]), dy, [N, D]),
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(x) as tf.Tensor2D;
}

/** One padded batch: tokens [B, T] and the flat target positions b·T + t with their next tokens. */
export interface SftBatch {
  tokens: Int32Array;
  B: number;
  T: number;
  /** Positions (b·T + t) whose next token tokens[b, t+1] is a target. */
  positions: Int32Array;
  targets: Int32Array;
}

/** Pads `batch` to one length bucket and lists its target positions. */
export function sftBatch(batch: readonly SftSequence[], context: number): SftBatch {
  const T = bucketLength(Math.max(...batch.map((s) => s.ids.length)), context);
  const tokens = padRows(
    batch.map((s) => s.ids),
    T,
    0,
  );
  const positions: number[] = [];
  const targets: number[] = [];
  batch.forEach((s, b) => {
    for (let t = 0; t < s.mask.length; t++) {
      if (s.mask[t] === 0) continue;
      positions.push(b * T + t);
      targets.push(s.ids[t + 1] as number);
    }
  });
  return {
    tokens,
    B: batch.length,
    T,
    positions: Int32Array.from(positions),
    targets: Int32Array.from(targets),
  };
}

/**
 * Differentiable token-mean NLL of `batch`'s targets under `policy`, the same value as the
 * masked mean of policyLogProbs's log-probs (teacher forcing, temperature 1). Call it inside a
 * gradient function; the caller owns the tensors it passes.
 */
export function sftLoss(
  policy: Model,
  tokens: tf.Tensor2D,
  positions: tf.Tensor1D,
  targets: tf.Tensor1D,
): tf.Scalar {
  return tf.tidy(() => {
    const [B, T] = tokens.shape;
    const D = policy.config.dModel;
    const { hidden } = forward(policy, { tokens, embed: 'onehot', noCache: true });
    // [B*T, D] -> [M, D] -> [1, M, V]
    const rows = selectRows(hidden.reshape([B * T, D]) as tf.Tensor2D, positions);
    const logits = lmLogits(policy, rows.reshape([1, -1, D]) as tf.Tensor3D);
    const logProbs = tf.logSoftmax(logits); // [1, M, V]
    const picked = logProbs.mul(tf.oneHot(targets, policy.config.vocabSize).expandDims(0)).sum(); // scalar
    return picked.div(Math.max(1, positions.shape[0])).neg() as tf.Scalar;
  });
}

/**
 * Draws a batch of `size` sequences from one length bucket: an anchor uniformly from all, the
 * rest uniformly from the anchor's bucket, so every sequence is equally likely in every slot.
 */
function drawBatch(
  rng: Rng,
  sequences: readonly SftSequence[],
  buckets: Map<number, SftSequence[]>,
  size: number,
  context: number,
): SftSequence[] {
  const anchor = rng.choice(sequences);
  const same = buckets.get(bucketLength(anchor.ids.length, context)) as SftSequence[];
  return [anchor, ...Array.from({ length: size - 1 }, () => rng.choice(same))];
}

/** Trains `policy` in place; resolves to the per-step losses. */
export async function sftTrain(
  policy: Model,
  sequences: readonly SftSequence[],
  o: SftOptions,
): Promise<number[]> {
  if (sequences.length === 0) throw new Error('sftTrain: no sequences');
  const context = policy.config.context;
  const buckets = new Map<number, SftSequence[]>();
  for (const s of sequences) {
    const k = bucketLength(s.ids.length, context);
    const list = buckets.get(k);
    if (list) list.push(s);
    else buckets.set(k, [s]);
  }
  const optimizer = tf.train.adam(o.lr, 0.9, 0.999, o.epsilon);
  const vars = modelVariables(policy);
  const losses: number[] = [];
  try {
    for (let step = 0; step < o.steps; step++) {
      const b = sftBatch(
        drawBatch(o.rng, sequences, buckets, Math.min(o.batchSize, sequences.length), context),
        context,
      );
      const tokens = tf.tensor2d(b.tokens, [b.B, b.T], 'int32');
      const positions = tf.tensor1d(b.positions, 'int32');
      const targets = tf.tensor1d(b.targets, 'int32');
      const nll = () => sftLoss(policy, tokens, positions, targets);
      // webgpu: the fused Adam step (model/kernels/adam.ts); elsewhere tfjs's own.
      const loss = fusedAdamActive(optimizer)
        ? fusedMinimize(optimizer, nll, vars)
        : optimizer.minimize(nll, true, vars);
      const value = loss ? ((await loss.data())[0] as number) : Number.NaN;
      tf.dispose([tokens, positions, targets, loss as tf.Tensor]);
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
