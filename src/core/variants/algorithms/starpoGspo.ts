// A 2026 variant: GRPO with GSPO's sequence-level ratio (compare with starpo-grpo).
import { STARPO } from './bases.js';
import type { AlgorithmVariant } from './variant.js';

export const starpoGspo: AlgorithmVariant<'starpo-gspo'> = {
  name: 'starpo-gspo',
  label: 'GSPO',
  colour: '#3d5a80',
  summary:
    'GRPO with one importance ratio per sequence (the geometric mean of its token ratios), clipped per sequence at 1 − 3e-4 … 1 + 4e-4 (Zheng et al. 2025; verl policy_loss gspo).',
  switches: {
    ...STARPO,
    advantage: 'grpo',
    klMode: 'loss',
    ratioLevel: 'sequence',
    clipLow: 3e-4,
    clipHigh: 4e-4,
  },
};
