// The rollout filters' names and the counts each implies, as plain data that imports nothing:
// config.ts reads them for its option list and its rollout limit, model/memory.ts for the batch
// sizes it estimates, and each row of filter.ts's FILTERS (which imports config.ts for its types,
// so config.ts cannot import it back) carries its row here. Callers read these fields instead of
// comparing a filter's name. A new filter is a name and a row here, a row and its selection in
// filter.ts.

/** The `filterMode` options, in the form's order. */
export const FILTER_NAMES = ['off', 'subsample', 'oversample', 'top-p', 'dynamic'] as const;

export type FilterName = (typeof FILTER_NAMES)[number];

/** DAPO's dynamic sampling rolls out at most this many batches of P groups an iteration. */
export const DYNAMIC_BATCHES = 3;

/** What a filter does to the counts of groups, before any reward is seen. */
export interface FilterCounts {
  /** Its first batch rolls out P / filterRatio groups instead of P, and it keeps P (oversample). */
  oversamples: boolean;
  /** It keeps the share filterRatio of the groups it rolled out (subsample). */
  keepsShare: boolean;
  /**
   * Batches of rollouts an iteration may take: 1, or DAPO's DYNAMIC_BATCHES — P more groups
   * while fewer than P have any reward spread (filterRollout.ts).
   */
  batches: number;
}

export const FILTER_COUNTS: Readonly<Record<FilterName, FilterCounts>> = {
  off: { oversamples: false, keepsShare: false, batches: 1 },
  subsample: { oversamples: false, keepsShare: true, batches: 1 },
  oversample: { oversamples: true, keepsShare: false, batches: 1 },
  'top-p': { oversamples: false, keepsShare: false, batches: 1 },
  dynamic: { oversamples: false, keepsShare: false, batches: DYNAMIC_BATCHES },
};

/** Whether a filter reads `filterRatio` (it keeps or oversamples by that share). */
export function usesKeepRatio(f: FilterCounts): boolean {
  return f.keepsShare || f.oversamples;
}
