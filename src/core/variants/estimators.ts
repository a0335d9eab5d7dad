// The advantage estimators, one file each under estimators/ (what an estimator is:
// estimators/variant.ts). The list is the `advantage` options in the form's order; config.ts, the
// trainer's preparation and batches, the objectives, model/memory.ts, the tour and the RAGEN
// exporter read the rows from here instead of branching on the switch's strings. A new estimator
// is one file beside the others and one line in ESTIMATOR_VARIANTS.
import { gae } from './estimators/gae.js';
import { grpo } from './estimators/grpo.js';
import { none } from './estimators/none.js';
import { turnGae } from './estimators/turnGae.js';
import type { EstimatorVariant } from './estimators/variant.js';
import { byName, namesOf, rowOf } from './registry.js';

export const ESTIMATOR_VARIANTS = [gae, grpo, turnGae, none] as const;

export type AdvantageName = (typeof ESTIMATOR_VARIANTS)[number]['name'];

/** The `advantage` options, in the form's order. */
export const ADVANTAGE_NAMES = namesOf(ESTIMATOR_VARIANTS);

/** Each estimator by its name. */
export const ESTIMATORS = byName(ESTIMATOR_VARIANTS);

/** The estimator a config's `advantage` switch selects. */
export function estimatorOf(config: { advantage: AdvantageName }): EstimatorVariant {
  return rowOf(ESTIMATORS, config.advantage, 'advantage estimator');
}

export type {
  EstimatedAdvantages,
  EstimatorInput,
  EstimatorSample,
  EstimatorVariant,
  ObjectiveName,
} from './estimators/variant.js';
