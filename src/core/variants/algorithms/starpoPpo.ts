// StarPO (RAGEN's paper) with PPO: the whole trajectory as one sequence, a critic and GAE.
import { STARPO } from './bases.js';
import type { AlgorithmVariant } from './variant.js';

export const starpoPpo: AlgorithmVariant<'starpo-ppo'> = {
  name: 'starpo-ppo',
  label: 'StarPO (PPO)',
  colour: '#d1495b',
  summary:
    'StarPO: the whole trajectory as one sequence, critic + GAE (γ = λ = 1), KL 0.001 per token in the reward.',
  switches: STARPO,
};
