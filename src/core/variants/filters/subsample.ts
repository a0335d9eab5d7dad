// StarPO-S's uncertainty filter as the paper runs it (RAGEN Eq 7): of the P groups rolled out,
// keep the top share filterRatio by the std of their rewards, so each update sees fewer samples.
import { filterGroups } from './groups.js';
import { asMany, type FilterVariant } from './variant.js';

/** floor(ratio·P) as RAGEN's topk, at least 1. */
export const topShare = (rolledOut: number, _target: number, ratio: number): number =>
  Math.max(1, Math.floor(ratio * rolledOut + 1e-9));

export const subsample: FilterVariant<'subsample'> = {
  name: 'subsample',
  label: 'StarPO-S: keep floor(ratio · P) of the P groups by reward std (or at random)',
  help: 'subsample (StarPO-S: keep the top share of the P groups by reward std)',
  why: 'subsampling also cuts optimizer steps',
  words: 'by dropping the rest, so each update sees fewer samples',
  oversamples: false,
  keepsShare: true,
  batches: 1,
  rollOut: asMany,
  keeps: topShare,
  select: (r, c, rng) => filterGroups(r, topShare(r.length, c.groups, c.filterRatio), c.filterOrder, rng),
  ragen: { topK: true, topP: () => 1, includeZero: true, ordered: true, unmapped: () => [] },
};
