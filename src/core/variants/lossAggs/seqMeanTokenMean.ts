// Each row's token mean, then the mean over rows (GRPO's original aggregation): every trajectory
// weighs alike, each token of a long one less.
import * as tf from '@tensorflow/tfjs';
import { meanOverRows } from './means.js';
import type { LossAggVariant } from './variant.js';

export const seqMeanTokenMean: LossAggVariant<'seq-mean-token-mean'> = {
  name: 'seq-mean-token-mean',
  label: 'each row’s token mean Σ_t(x·mask)/Σ_t mask, then the mean over rows (GRPO)',
  help: 'seq-mean-token-mean (the mean of each sequence’s token mean)',
  why: 'seq-mean-token-mean weights every trajectory alike but gives each token of a long one less',
  perToken: true,
  weightBy: 'rows',
  reduce: (x, mask) => meanOverRows(x, mask, (sums, tokens) => tf.div(sums, tf.maximum(tokens, 1))),
  ragenV1: false,
};
