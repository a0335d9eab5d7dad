// StarPO-S with the stabilisers proposed beside RAGEN's paper (the secondary note), not in it.
import { STARPO_S } from './bases.js';
import type { AlgorithmVariant } from './variant.js';

export const starpoSPlus: AlgorithmVariant<'starpo-s+'> = {
  name: 'starpo-s+',
  label: 'StarPO-S+',
  colour: '#66a182',
  summary:
    'StarPO-S plus stabilisers proposed beside RAGEN’s paper: 2σ drop, thinking critic, clip 0.5, KL stop, LR warm-up.',
  switches: {
    ...STARPO_S,
    outlierDrop: true,
    thinkingCritic: true,
    gradClip: 0.5,
    klEarlyStop: 0.05,
    lrWarmup: 0.1,
  },
};
