// What one named algorithm is: a preset of switches, each the name of a row on its axis
// (../estimators, ../filters, ../lossAggs, ../ratioLevels) or a number, with its label, summary
// and colour. Each preset sets every switch it owns, so changing algorithm never leaves a stale
// switch from the previous one; every switch stays settable on its own afterwards, so the paper's
// ablations are one change each. One file per algorithm beside this one; ../algorithms.ts lists them.
import type { AdvantageName } from '../estimators.js';
import type { FilterName } from '../filters.js';
import type { LossAgg } from '../lossAggs.js';
import type { RatioLevel } from '../ratioLevels.js';

/** The config fields an algorithm sets (core/config.ts names and checks them). */
export interface Switches {
  advantage: AdvantageName;
  whiten: boolean;
  klCoef: number;
  klMode: 'loss' | 'reward';
  normAdvByStd: boolean;
  filterMode: FilterName;
  filterRatio: number;
  filterTopP: number;
  lossAgg: LossAgg;
  ratioLevel: RatioLevel;
  clipLow: number;
  clipHigh: number;
  criticWarmup: number;
  outlierDrop: boolean;
  thinkingCritic: boolean;
  gradClip: number;
  klEarlyStop: number;
  lrWarmup: number;
}

export interface AlgorithmVariant<Name extends string = string> {
  name: Name;
  /** Short name for legends and tables. */
  label: string;
  /** One line for the algorithm table. */
  summary: string;
  /** Its line colour in every chart and figure (study, bands), one per algorithm. */
  colour: string;
  /** Its advantage estimator, update and critic use are those of `switches.advantage` (../estimators). */
  switches: Switches;
}
