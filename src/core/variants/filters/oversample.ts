// StarPO-S by oversampling: roll out ⌈P / filterRatio⌉ groups and keep P by reward std, so the
// kept batch is as large as an unfiltered one (the fairer comparison with no filter).
import { filterGroups } from './groups.js';
import type { FilterVariant } from './variant.js';

/** ⌈P/ratio⌉ groups rolled out. */
const oversampled = (groups: number, ratio: number) => Math.ceil(groups / ratio - 1e-9);
/** P of them kept (all, when fewer came back). */
const target = (rolledOut: number, targetGroups: number) => Math.min(targetGroups, rolledOut);

export const oversample: FilterVariant<'oversample'> = {
  name: 'oversample',
  label: 'StarPO-S by oversampling: roll out ⌈P / ratio⌉ groups, keep P by reward std',
  help: 'oversample (roll out P/ratio groups, keep P)',
  why: 'oversampling keeps the batch, a fairer comparison',
  words: 'by oversampling, so each update sees as many samples',
  oversamples: true,
  keepsShare: false,
  batches: 1,
  rollOut: oversampled,
  keeps: target,
  select: (r, c, rng) => filterGroups(r, target(r.length, c.groups), c.filterOrder, rng),
  ragen: {
    topK: true,
    topP: () => 1,
    includeZero: true,
    ordered: true,
    unmapped: () => [
      'filterMode oversample: RAGEN filters the groups it rolled out; raise env_groups to groups / filterRatio to match',
    ],
  },
};
