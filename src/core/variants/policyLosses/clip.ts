// The clipped surrogate (PPO, GRPO, GSPO), at the run's ratio level; verl's loss_mode vanilla.
import { clippedPolicyLoss } from '../ratioLevels.js';
import type { PolicyLossVariant } from './variant.js';

export const clip: PolicyLossVariant<'clip'> = {
  name: 'clip',
  label:
    'the clipped surrogate max(−A·r, −A·clip(r, 1 − ε_low, 1 + ε_high)), per token or per sequence (PPO, GRPO, GSPO)',
  help: 'clip (the clipped surrogate)',
  verlMode: 'vanilla',
  selects: false,
  select: () => null,
  loss: (t, s, agg) =>
    clippedPolicyLoss(t.logp, t.oldLogp, t.advantages, t.mask, s.clipLow, s.clipHigh, agg, s.ratioLevel),
};
