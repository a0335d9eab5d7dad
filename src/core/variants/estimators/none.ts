// No advantage: online DPO on each group's best and worst trajectory (its samples feed the DPO
// objective, which takes pairs; DPO is chosen by this estimator, not by an algorithm's name).
import { type EstimatorVariant, zeros } from './variant.js';

export const none: EstimatorVariant<'none'> = {
  name: 'none',
  label: 'none: online DPO on each group’s best and worst trajectory',
  help: 'none (online DPO on each group’s best and worst trajectory)',
  critic: false,
  samples: 'trajectory',
  ragen: null,
  objective: 'dpo',
  minGroupSize: 2,
  groupSizeWhy: 'online DPO pairs the best and worst trajectory of a group',
  advantages: (x) => ({ advantages: zeros(x.samples), returns: zeros(x.samples) }),
};
