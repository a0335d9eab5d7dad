// A 2026 variant: GRPO with DAPO's clip-higher, no KL and dynamic sampling (compare with starpo-grpo).
import { STARPO } from './bases.js';
import type { AlgorithmVariant } from './variant.js';

export const starpoDapo: AlgorithmVariant<'starpo-dapo'> = {
  name: 'starpo-dapo',
  label: 'DAPO',
  colour: '#7a306c',
  summary:
    'GRPO with DAPO’s changes (Yu et al. 2025): clip-higher 0.2/0.28, no KL, token-level loss, and dynamic sampling (groups whose rewards are all equal dropped, more rolled out, up to 3 batches).',
  switches: {
    ...STARPO,
    advantage: 'grpo',
    klCoef: 0,
    klMode: 'loss',
    clipHigh: 0.28,
    filterMode: 'dynamic',
  },
};
