// The rollout filters, one file each under filters/ (what a filter is: filters/variant.ts). The
// list is the `filterMode` options in the form's order; config.ts, model/memory.ts, the trainer's
// filter (rl/filter.ts), the explanations, the tour and the RAGEN exporter read the rows from
// here. A new filter is one file beside the others and one line in FILTER_VARIANTS.
import { dynamic } from './filters/dynamic.js';
import { off } from './filters/off.js';
import { oversample } from './filters/oversample.js';
import { subsample } from './filters/subsample.js';
import { topP } from './filters/topP.js';
import { byName, namesOf } from './registry.js';

export const FILTER_VARIANTS = [off, subsample, oversample, topP, dynamic] as const;

export type FilterName = (typeof FILTER_VARIANTS)[number]['name'];

/** The `filterMode` options, in the form's order. */
export const FILTER_NAMES = namesOf(FILTER_VARIANTS);

/** Each filter by its name. */
export const FILTERS = byName(FILTER_VARIANTS);

export { DYNAMIC_BATCHES } from './filters/dynamic.js';
export type { FilterOrder, FilterResult, GroupStats } from './filters/groups.js';
export type { FilterSettings, FilterVariant, RagenFilter } from './filters/variant.js';
export { usesKeepRatio } from './filters/variant.js';
