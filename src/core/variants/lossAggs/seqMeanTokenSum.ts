// Each row's token sum, then the mean over rows, with no division by length (Dr. GRPO, Liu et al.
// 2025): it removes the length bias of a per-row mean.
import { meanOverRows } from './means.js';
import type { LossAggVariant } from './variant.js';

export const seqMeanTokenSum: LossAggVariant<'seq-mean-token-sum'> = {
  name: 'seq-mean-token-sum',
  label: 'each row’s token sum Σ_t(x·mask), then the mean over rows, no division by length (Dr. GRPO)',
  help: 'seq-mean-token-sum (the mean of each sequence’s token sum, Dr. GRPO)',
  why: 'seq-mean-token-sum removes that length bias (Dr. GRPO)',
  perToken: false,
  weightBy: 'rows',
  reduce: (x, mask) => meanOverRows(x, mask, (sums) => sums),
  ragenV1: false,
};
