// RAGEN-2's recommended filter (rollout_filter_strategy top_p, metric reward_variance, prob mode
// linear, include_zero False, selection eps 0.01): groups by reward variance until they hold the
// top-p share of the batch's total, never a group with none.
import { ZERO_STD } from '../../stats.js';
import { type FilterResult, groupStats, selection } from './groups.js';
import { asMany, type FilterVariant } from './variant.js';

/** RAGEN-2's recommended share, the `filterTopP` field's default. */
export const TOP_P_DEFAULT = 0.9;

/**
 * Drops the groups with no reward variance, sorts the rest by variance (highest first; ties by
 * group index), and keeps them in that order until their summed variance reaches `value` × the
 * total − `eps`. Keeps none when no group has any.
 */
export function topPGroups(rewards: readonly (readonly number[])[], value: number, eps = 0.01): FilterResult {
  const all = groupStats(rewards);
  const ranked = all.filter((s) => s.std >= ZERO_STD).sort((a, b) => b.std - a.std || a.group - b.group);
  const total = ranked.reduce((t, s) => t + s.std * s.std, 0);
  const kept: number[] = [];
  let sum = 0;
  for (const s of ranked) {
    if (kept.length > 0 && sum >= value * total - eps) break;
    kept.push(s.group);
    sum += s.std * s.std;
  }
  return selection(
    all,
    kept.sort((a, b) => a - b),
  );
}

export const topP: FilterVariant<'top-p'> = {
  name: 'top-p',
  label: 'RAGEN-2: keep groups by reward variance until the top-p share of the total',
  help: 'top-p (RAGEN-2: keep groups, highest reward variance first, until they hold the top-p share of the batch’s total variance; never a group with none)',
  why: 'top-p keeps as many groups as carry most of the signal',
  words: 'by reward variance up to the top-p share of the total, so each update sees fewer samples',
  oversamples: false,
  keepsShare: false,
  batches: 1,
  rollOut: asMany,
  select: (r, c) => topPGroups(r, c.filterTopP),
  ragen: {
    topK: false,
    topP: (c) => c.filterTopP,
    includeZero: false,
    ordered: true,
    unmapped: (c, v1) =>
      v1
        ? [`filterMode top-p ${c.filterTopP}: RAGEN v1 has only the top-k std filter; export with --ragen v2`]
        : [],
  },
};
