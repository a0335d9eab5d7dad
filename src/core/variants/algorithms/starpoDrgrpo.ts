// A 2026 variant (RAGEN v2's main table, verl and TRL): GRPO's advantage with one change, so a
// comparison with starpo-grpo isolates it. Dr. GRPO: no std division, token-sum loss.
import { STARPO } from './bases.js';
import type { AlgorithmVariant } from './variant.js';

export const starpoDrgrpo: AlgorithmVariant<'starpo-drgrpo'> = {
  name: 'starpo-drgrpo',
  label: 'Dr. GRPO',
  colour: '#c46210',
  summary:
    'GRPO without the division by the group’s std (R − mean) and each sequence’s token-sum loss averaged over sequences (Liu et al. 2025; RAGEN v2: norm_adv_by_std_in_grpo False, seq-mean-token-sum).',
  switches: {
    ...STARPO,
    advantage: 'grpo',
    klMode: 'loss',
    normAdvByStd: false,
    lossAgg: 'seq-mean-token-sum',
  },
};
