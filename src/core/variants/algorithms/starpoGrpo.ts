// StarPO with GRPO's group-normalised advantages: the echo-trap preset's algorithm.
import { STARPO } from './bases.js';
import type { AlgorithmVariant } from './variant.js';

export const starpoGrpo: AlgorithmVariant<'starpo-grpo'> = {
  name: 'starpo-grpo',
  label: 'StarPO (GRPO)',
  colour: '#edae49',
  summary:
    'StarPO with group-normalised advantages (R − mean)/std within each start state, no critic, KL 0.001 in the loss.',
  // RAGEN's GRPO runs (train_all.sh USE_GRPO: use_kl_loss True, kl_loss_coef 0.001): KL in the loss.
  switches: { ...STARPO, advantage: 'grpo', klMode: 'loss' },
};
