// Standard PPO, one sample per turn with only its own state: the baseline StarPO is compared with.
import { STARPO } from './bases.js';
import type { AlgorithmVariant } from './variant.js';

export const ppoTurn: AlgorithmVariant<'ppo-turn'> = {
  name: 'ppo-turn',
  label: 'PPO (per turn)',
  colour: '#8d6a9f',
  summary: 'Standard PPO: each turn is its own sample (no history), critic + GAE over turns.',
  switches: { ...STARPO, advantage: 'turn-gae', klCoef: 0 },
};
