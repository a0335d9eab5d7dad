// Supervised fine-tuning on demonstrations, to make base models: each demo becomes
// token sequences laid out exactly as the rollout will prompt the agent (same history cut), and
// the loss is the token-mean negative log-likelihood of the agent's tokens.
//
// Cost (measured on WebShop-lite, nano, wasm: bench `sft`): the LM head over every position
// and the entropy the RL scorer also computes were most of a step, while only the agent's
// tokens (~15% of a sequence) are targets. So the loss takes the trunk's hidden states at the
// target positions only (a row gather whose gradient is a scatter-add, since tfjs-wasm has no
// gather gradient) and runs the tied LM head and log-softmax on those rows alone, with no
// entropy. Optionally the environment's tokens are targets too, with their own weight. Batches are drawn from one length bucket, so a batch is padded to its own length.
import * as tf from '@tensorflow/tfjs';
import { Adam } from '../model/adam.js';
import { type Model, modelVariables } from '../model/params.js';
import { selectRows } from '../model/rows.js';
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
  /** [n−1] mask of the environment's tokens (observations, turn headers, rewards), if kept. */
  envMask?: Float32Array;
}

/**
 * Windows of each example as the rollout shows them: for k = h−1, 2h−1, … and the last turn,
 * the turns up to k with the last `historyTurns` kept, so every response is trained on once.
 * Windows ending before turn `fromTurn` (0-based) are left out, so a pool can hold only the
 * later turns of its episodes.
 */
export function sftSequences(
  tok: Tokenizer,
  examples: readonly SftExample[],
  historyTurns: number,
  contextLength: number,
  fromTurn = 0,
): SftSequence[] {
  const out: SftSequence[] = [];
  for (const ex of examples) {
    const n = ex.turns.length;
    const ends: number[] = [];
    for (let k = historyTurns - 1; k < n; k += historyTurns) ends.push(k);
    if (ends[ends.length - 1] !== n - 1) ends.push(n - 1);
    for (const k of ends) {
      if (k < fromTurn) continue;
      const seq = buildSequence(tok, ex.instruction, ex.turns.slice(0, k + 1), {
        historyTurns,
        maxTokens: contextLength,
        lossOnEnvTokens: true,
      });
      const mask = new Float32Array(seq.ids.length - 1);
      const envMask = new Float32Array(seq.ids.length - 1);
      for (let t = 0; t + 1 < seq.ids.length; t++) {
        mask[t] = seq.agentMask[t + 1] as number;
        envMask[t] = (seq.lossMask[t + 1] as number) - (seq.agentMask[t + 1] as number);
      }
      out.push({ ids: seq.ids, mask, envMask });
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
  /**
   * Weight of the environment tokens' NLL beside the agent's (default 0: agent tokens only):
   * the loss is the mean over agent tokens + envWeight × the mean over env tokens. Reading the
   * pages as a language model teaches the copying the agent needs (ids, option values) from
   * many more tokens than its own turns hold.
   */
  envWeight?: number;
  /** Steps of linear learning-rate warm-up from lr/warmup (default 0). */
  warmupSteps?: number;
  /** 'cosine': after the warm-up, decay to 10% of lr by the last step; default 'constant'. */
  schedule?: 'constant' | 'cosine';
  /** Called after each step with the step's loss (read back once per step) and batch shape. */
  onStep?(step: number, loss: number, batch: { T: number; targets: number; drill: boolean }): void;
  /**
   * Copy drills (copyDrills): the first `steps` steps train on them alone, and afterwards a
   * `share` of the steps (drawn at random) still does, so the copying they teach is kept.
   */
  drills?: { sequences: readonly SftSequence[]; steps: number; share: number };
  /** Awaited after every `every` steps (and not after the last), e.g. a held-out evaluation. */
  periodic?: { every: number; run(stepsDone: number): Promise<void> };
}

/** The learning rate of step `step` (0-based) under `o`'s warm-up and schedule. */
export function sftLearningRate(
  o: Pick<SftOptions, 'lr' | 'steps' | 'warmupSteps' | 'schedule'>,
  step: number,
): number {
  const warm = o.warmupSteps ?? 0;
  if (step < warm) return (o.lr * (step + 1)) / warm;
  if (o.schedule !== 'cosine') return o.lr;
  const span = Math.max(1, o.steps - 1 - warm);
  const progress = Math.min(1, (step - warm) / span);
  return o.lr * (0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * progress)));
}

/** One padded batch: tokens [B, T] and the flat target positions b·T + t with their next tokens. */
export interface SftBatch {
  tokens: Int32Array;
  B: number;
  T: number;
  /** Positions (b·T + t) whose next token tokens[b, t+1] is a target. */
  positions: Int32Array;
  targets: Int32Array;
  /** Each target's weight in the loss: 1/#agent for agent tokens, envWeight/#env for env tokens. */
  weights: Float32Array;
  /** How many of the targets (the first ones) are the agent's. */
  agentTargets: number;
}

/**
 * Pads `batch` to one length bucket and lists its target positions: the agent's tokens, then
 * (when `envWeight` > 0) the environment's, weighted so that the loss is a mean over each.
 */
export function sftBatch(batch: readonly SftSequence[], context: number, envWeight = 0): SftBatch {
  const T = bucketLength(Math.max(...batch.map((s) => s.ids.length)), context);
  const tokens = padRows(
    batch.map((s) => s.ids),
    T,
    0,
  );
  const positions: number[] = [];
  const targets: number[] = [];
  const take = (pick: (s: SftSequence) => Float32Array | undefined) => {
    for (const [b, s] of batch.entries()) {
      const m = pick(s);
      if (!m) continue;
      for (let t = 0; t < m.length; t++) {
        if (m[t] === 0) continue;
        positions.push(b * T + t);
        targets.push(s.ids[t + 1] as number);
      }
    }
  };
  take((s) => s.mask);
  const agentTargets = positions.length;
  if (envWeight > 0) take((s) => s.envMask);
  const envTargets = positions.length - agentTargets;
  const weights = new Float32Array(positions.length);
  weights.fill(1 / Math.max(1, agentTargets), 0, agentTargets);
  if (envTargets > 0) weights.fill(envWeight / envTargets, agentTargets);
  return {
    tokens,
    B: batch.length,
    T,
    positions: Int32Array.from(positions),
    targets: Int32Array.from(targets),
    weights,
    agentTargets,
  };
}

/**
 * Differentiable weighted NLL −Σ weights·log p(target) of a batch's targets under `policy`
 * (teacher forcing, temperature 1). With sftBatch's weights: the agent tokens' mean — the same
 * value as the masked mean of policyLogProbs's log-probs — plus envWeight × the env tokens'
 * mean. Call it inside a gradient function; the caller owns the tensors it passes.
 */
export function sftLoss(
  policy: Model,
  tokens: tf.Tensor2D,
  positions: tf.Tensor1D,
  targets: tf.Tensor1D,
  weights: tf.Tensor1D,
): tf.Scalar {
  return tf.tidy(() => {
    const [B, T] = tokens.shape;
    const D = policy.config.dModel;
    const { hidden } = forward(policy, { tokens, embed: 'train', noCache: true });
    // [B*T, D] -> [M, D] -> [1, M, V]
    const rows = selectRows(hidden.reshape([B * T, D]) as tf.Tensor2D, positions);
    const logits = lmLogits(policy, rows.reshape([1, -1, D]) as tf.Tensor3D);
    const logProbs = tf.logSoftmax(logits); // [1, M, V]
    // [1, M, V] -> [M]
    const picked = logProbs.mul(tf.oneHot(targets, policy.config.vocabSize).expandDims(0)).sum([0, 2]);
    return picked.mul(weights).sum().neg() as tf.Scalar;
  });
}

/**
 * Copy drills: a small model learns to copy (an induction head) from far fewer examples when
 * nearly every target is a copy than from demonstrations, where copies (the search words, a
 * product id, an option value) are a few tokens a turn. Each drill is a window of one of
 * `texts` (at most `maxSource` tokens), a newline, then a random span of that window again
 * (`minSpan`–`maxSpan` tokens, never longer than the window), with the repeated span as target.
 */
export function copyDrills(
  tok: Tokenizer,
  texts: readonly string[],
  count: number,
  rng: Rng,
  options: { maxSource?: number; minSpan?: number; maxSpan?: number } = {},
): SftSequence[] {
  const maxSource = options.maxSource ?? 96;
  const minSpan = options.minSpan ?? 4;
  const maxSpan = options.maxSpan ?? 24;
  const encoded = texts.map((t) => tok.encode(t)).filter((ids) => ids.length >= minSpan);
  if (encoded.length === 0) throw new Error(`copyDrills: no text has ${minSpan} tokens`);
  const nl = tok.encode('\n');
  const out: SftSequence[] = [];
  for (let k = 0; k < count; k++) {
    const ids = rng.choice(encoded);
    const n = Math.min(ids.length, maxSource);
    const from = rng.int(0, ids.length - n + 1);
    const source = ids.slice(from, from + n);
    const L = rng.int(minSpan, Math.min(maxSpan, n) + 1);
    const a = rng.int(0, n - L + 1);
    const seq = [tok.special['<bos>'], ...source, ...nl, ...source.slice(a, a + L)];
    const mask = new Float32Array(seq.length - 1);
    mask.fill(1, seq.length - 1 - L);
    out.push({ ids: seq, mask });
  }
  return out;
}

/** Sequences grouped by their padded length. */
function bucketed(sequences: readonly SftSequence[], context: number): Map<number, SftSequence[]> {
  const buckets = new Map<number, SftSequence[]>();
  for (const s of sequences) {
    const k = bucketLength(s.ids.length, context);
    const list = buckets.get(k);
    if (list) list.push(s);
    else buckets.set(k, [s]);
  }
  return buckets;
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
  const buckets = bucketed(sequences, context);
  const drills = o.drills && o.drills.sequences.length > 0 ? o.drills : null;
  const drillBuckets = drills ? bucketed(drills.sequences, context) : null;
  const optimizer = new Adam({ epsilon: o.epsilon });
  const vars = modelVariables(policy);
  const losses: number[] = [];
  try {
    for (let step = 0; step < o.steps; step++) {
      const drill = drills !== null && (step < drills.steps || o.rng.bool(drills.share));
      const pool = drill ? (drills?.sequences as readonly SftSequence[]) : sequences;
      const b = sftBatch(
        drawBatch(
          o.rng,
          pool,
          drill ? (drillBuckets as Map<number, SftSequence[]>) : buckets,
          Math.min(o.batchSize, pool.length),
          context,
        ),
        context,
        o.envWeight ?? 0,
      );
      const tokens = tf.tensor2d(b.tokens, [b.B, b.T], 'int32');
      const positions = tf.tensor1d(b.positions, 'int32');
      const targets = tf.tensor1d(b.targets, 'int32');
      const weights = tf.tensor1d(b.weights);
      const nll = () => sftLoss(policy, tokens, positions, targets, weights);
      const loss = optimizer.minimize(nll, vars, sftLearningRate(o, step));
      const value = (await loss.data())[0] as number;
      tf.dispose([tokens, positions, targets, weights, loss]);
      if (!Number.isFinite(value))
        throw new Error(`sftTrain: loss became ${value} at step ${step}; lower the learning rate`);
      losses.push(value);
      o.onStep?.(step, value, { T: b.T, targets: b.positions.length, drill });
      if (o.periodic && (step + 1) % o.periodic.every === 0 && step + 1 < o.steps)
        await o.periodic.run(step + 1);
    }
  } finally {
    optimizer.dispose();
  }
  return losses;
}
