// What one rollout filter is, everywhere it is read: its name and counts (config.ts's checks,
// model/memory.ts's batch sizes), its selection (filterRollout.ts), its words for the docs, the
// tour and the explanations (ui/explain/texts.ts), and what RAGEN can say of it
// (cli/commands/export-ragen.ts). One file per filter beside this one; ../filters.ts lists them.
// This floor imports only core's root helpers (rng.ts, stats.ts), so config.ts can read it.
import type { Rng } from '../../rng.js';

/** The config fields a filter reads (a subset of core/config.ts's Config). */
export interface FilterSettings {
  /** P, the groups an iteration trains on. */
  groups: number;
  /** The share kept (subsample) or the oversampling ratio. */
  filterRatio: number;
  /** Which groups a std filter keeps: highest std (the paper), lowest, or at random (the control). */
  filterOrder: 'highest-std' | 'lowest-std' | 'random';
  /** RAGEN-2's top-p share of the total reward variance. */
  filterTopP: number;
}

/** Per-group statistics of trajectory rewards. */
export interface GroupStats {
  group: number;
  mean: number;
  std: number;
  max: number;
}

export interface FilterResult {
  /** Indices of the kept groups, in ascending order. */
  keptGroups: number[];
  /** Kept groups ÷ groups rolled out. */
  keptRatio: number;
  all: GroupStats[];
  /** Mean of the kept groups' std, mean and max reward (RAGEN's rollout/chosen_in_group_*). */
  chosen: { std: number; mean: number; max: number };
}

/** What RAGEN can say of a filter (cli/commands/export-ragen.ts). */
export interface RagenFilter {
  /** RAGEN's top-k std filter expresses it (with a std order): the paper's StarPO-S. */
  topK: boolean;
  /** v2's rollout_filter_value when top-k does not express it: its top-p share, or 1 (off). */
  topP(c: FilterSettings): number;
  /** v2's rollout_filter_include_zero: it may keep a group whose rewards are all equal. */
  includeZero: boolean;
  /** It keeps groups in `filterOrder`'s order (RAGEN has no random keep). */
  ordered: boolean;
  /** What RAGEN `v1` (or v2) cannot express of it, as unmapped lines. */
  unmapped(c: FilterSettings, v1: boolean): string[];
}

/** One rollout filter. */
export interface FilterVariant<Name extends string = string> {
  name: Name;
  /** One line for the docs. */
  label: string;
  /** Its clause in the `filterMode` explanation ("subsample (StarPO-S: …)"). */
  help: string;
  /** Why one would pick it, a clause of the same explanation (absent for none). */
  why?: string;
  /** How it filtered a recording's groups, in the tour's words ("here: …"). */
  words: string;
  /** Its first batch rolls out P / filterRatio groups instead of P, and it keeps P (oversample). */
  oversamples: boolean;
  /** It keeps the share filterRatio of the groups it rolled out (subsample). */
  keepsShare: boolean;
  /**
   * Batches of rollouts an iteration may take: 1, or DAPO's DYNAMIC_BATCHES — P more groups
   * while fewer than P have any reward spread (filterRollout.ts).
   */
  batches: number;
  /** Groups of the iteration's first rollout batch for P = `groups` (`ratio`: filterRatio). */
  rollOut(groups: number, ratio: number): number;
  /** How many groups it keeps of `rolledOut`, where that is a count; absent where the rewards decide. */
  keeps?(rolledOut: number, targetGroups: number, ratio: number): number;
  /** The kept groups of those rolled out (`rewards[g]`: group g's trajectory rewards); null keeps all. */
  select(rewards: readonly (readonly number[])[], c: FilterSettings, rng: Rng): FilterResult | null;
  ragen: RagenFilter;
}

/** P groups rolled out for P. */
export const asMany = (groups: number): number => groups;

/** Whether a filter reads `filterRatio` (it keeps or oversamples by that share). */
export function usesKeepRatio(f: Pick<FilterVariant, 'keepsShare' | 'oversamples'>): boolean {
  return f.keepsShare || f.oversamples;
}
