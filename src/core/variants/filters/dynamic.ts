// DAPO's dynamic sampling (Yu et al. 2025): drop the groups whose rewards are all equal and roll
// out P more while fewer than P remain, up to DYNAMIC_BATCHES batches (filterRollout.ts).
import { ZERO_STD } from '../../stats.js';
import { type FilterResult, groupStats, selection } from './groups.js';
import { asMany, type FilterVariant } from './variant.js';

/** Dynamic sampling rolls out at most this many batches of P groups an iteration. */
export const DYNAMIC_BATCHES = 3;

/** The first `target` groups (by index) whose rewards are not all equal; the rest are dropped. */
export function spreadGroups(rewards: readonly (readonly number[])[], target: number): FilterResult {
  const all = groupStats(rewards);
  const kept = all
    .filter((s) => s.std >= ZERO_STD)
    .slice(0, target)
    .map((s) => s.group);
  return selection(all, kept);
}

export const dynamic: FilterVariant<'dynamic'> = {
  name: 'dynamic',
  label: 'DAPO’s dynamic sampling: drop groups with no reward spread, roll out more',
  help: `dynamic (DAPO: drop groups whose rewards are all equal and roll out more, up to ${DYNAMIC_BATCHES} batches, until P remain)`,
  why: 'dynamic sampling pays extra rollouts to keep the batch full of signal',
  words:
    'by dropping groups without reward spread and rolling out more, so each update sees up to as many samples',
  oversamples: false,
  keepsShare: false,
  batches: DYNAMIC_BATCHES,
  rollOut: asMany,
  select: (r, c) => spreadGroups(r, c.groups),
  ragen: {
    topK: false,
    topP: () => 1,
    includeZero: true,
    ordered: true,
    unmapped: (_, v1) => [
      `filterMode dynamic (DAPO's dynamic sampling): RAGEN has no refill; ${v1 ? 'no v1 filter drops zero-variance groups' : 'rollout_filter_include_zero False drops zero-variance groups without rolling out more'}; verl's DAPO recipe has algorithm.filter_groups`,
    ],
  },
};
