// Applying a named algorithm (its switches: core/variants/algorithms/, one file each) to a config,
// and what its switches imply.
import type { Config } from '../config.js';
import { ALGORITHMS } from '../variants/algorithms.js';
import { estimatorOf } from '../variants/estimators.js';
import { rowOf } from '../variants/registry.js';

/** The config with `name`'s switches applied (other fields unchanged). */
export function applyAlgorithm(config: Config, name: Config['algorithm']): Config {
  return { ...config, ...rowOf(ALGORITHMS, name, 'algorithm').switches, algorithm: name };
}

/** Whether the config's advantage estimator trains a critic (core/variants/estimators). */
export function usesCritic(config: Pick<Config, 'advantage'>): boolean {
  return estimatorOf(config).critic;
}
