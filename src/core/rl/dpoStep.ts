// One DPO step on chosen/rejected pairs (Rafailov et al. 2023, online: each group's best and worst
// trajectory), checked as every step is (update.ts applyChecked): gradients, the global norm, one
// readback, and nothing applied when anything is not finite.
import * as tf from '@tensorflow/tfjs';
import type { Adam } from '../model/adam.js';
import type { Model } from '../model/params.js';
import { modelVariables } from '../model/params.js';
import { maskedRows, policyLogProbs } from '../model/scoring.js';
import { maskedMean } from '../variants/lossAggs.js';
import { dpoLoss } from './losses.js';
import { type MicroLoss, type StepLoss, shares } from './microBatch.js';
import { applyChecked, type StepResult } from './update.js';

/**
 * A DPO minibatch over `pairs` chosen/rejected trajectories. Each trajectory may span several
 * rows (its history windows, each in the context the rollout saw); `owner` [2·pairs, rows]
 * is 1 where a row belongs to slot j (chosen j < pairs, rejected pairs + j), so a trajectory's
 * log-prob is the sum over its rows.
 */
export interface DpoBatch {
  pairs: number;
  rows: number;
  T: number;
  /** [rows, T] */
  tokens: Int32Array;
  /** [rows, T−1] */
  mask: Float32Array;
  /** [2·pairs, rows] */
  owner: Float32Array;
  /** Reference trajectory log-probs: [pairs] chosen, [pairs] rejected. */
  refChosen: Float32Array;
  refRejected: Float32Array;
}

/** The DPO loss of one piece of a DPO step (some of its pairs). */
function pairLoss(
  policy: Model,
  batch: DpoBatch,
  beta: number,
  temperature: number,
  weight: number,
): MicroLoss {
  const n = batch.rows;
  const tokens = tf.tensor2d(batch.tokens, [n, batch.T], 'int32');
  const mask = tf.tensor2d(batch.mask, [n, batch.T - 1]);
  const owner = tf.tensor2d(batch.owner, [2 * batch.pairs, n]);
  const refC = tf.tensor1d(batch.refChosen);
  const refR = tf.tensor1d(batch.refRejected);
  const rows = maskedRows(batch.mask);
  const f = (): StepLoss => {
    const { logp, entropy } = policyLogProbs(policy, tokens, temperature, 'train', rows);
    const rowSums = tf.sum(tf.mul(logp, mask), 1, true); // [rows, 1]
    const seq = tf.matMul(owner, rowSums).reshape([2 * batch.pairs]); // [2P, rows] x [rows, 1] -> [2P]
    const chosen = seq.slice([0], [batch.pairs]);
    const rejected = seq.slice([batch.pairs], [batch.pairs]);
    const r = dpoLoss(chosen, rejected, refC, refR, beta);
    return {
      loss: r.loss,
      metrics: {
        'actor/dpoMargin': r.margin,
        'actor/dpoAccuracy': r.accuracy,
        'actor/entropy': maskedMean(entropy, mask),
      },
    };
  };
  return { f, weight, tensors: [tokens, mask, owner, refC, refR] };
}

/**
 * One DPO step on chosen/rejected pairs at step size `lr`, β `beta`, clipped to `gradClip`;
 * log-probs at `temperature` (the rollout's, as the reference scores were taken; 1 by default). Metrics: actor/dpoLoss, dpoMargin, dpoAccuracy, entropy, gradNorm.
 * Given several batches (micro-batches of the step's pairs), each is weighted by its share of
 * the pairs, so the sum is the mean over all of them as one batch would give.
 */
export async function dpoStep(
  policy: Model,
  optimizer: Adam,
  batch: DpoBatch | readonly DpoBatch[],
  s: { lr: number; beta: number; gradClip: number; temperature?: number },
): Promise<StepResult> {
  const { beta, temperature = 1 } = s;
  const pieces = Array.isArray(batch) ? (batch as readonly DpoBatch[]) : [batch as DpoBatch];
  const weights = shares(pieces.map((p) => p.pairs));
  const micro = pieces.map((p, i) => pairLoss(policy, p, beta, temperature, weights[i] as number));
  try {
    return await applyChecked(optimizer, s.lr, micro, modelVariables(policy), s.gradClip, {
      loss: 'actor/dpoLoss',
      gradNorm: 'actor/gradNorm',
    });
  } finally {
    tf.dispose(micro.flatMap((m) => m.tensors));
  }
}
