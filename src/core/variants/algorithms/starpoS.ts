// StarPO-S (RAGEN's paper): the uncertainty filter, clip-higher and no KL over StarPO (PPO).
import { STARPO_S } from './bases.js';
import type { AlgorithmVariant } from './variant.js';

export const starpoS: AlgorithmVariant<'starpo-s'> = {
  name: 'starpo-s',
  label: 'StarPO-S',
  colour: '#2e86ab',
  summary: 'StarPO-S: keep the top 25% of groups by reward std, critic + GAE, clip-higher 0.28, no KL.',
  switches: STARPO_S,
};
