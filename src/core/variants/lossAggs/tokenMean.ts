// The mean over every masked token of the minibatch. RAGEN's config sets it (mll-lab-nu/RAGEN
// config/base.yaml `loss_agg_mode: "token-mean"`; RAGEN-AI main@5eb79b8 leaves it to verl's
// ppo_trainer.yaml default, also "token-mean"); the paper-era v0423 actor has no switch and takes
// verl's masked_mean, a token mean (per micro-batch).
import { maskedMean } from './means.js';
import type { LossAggVariant } from './variant.js';

export const tokenMean: LossAggVariant<'token-mean'> = {
  name: 'token-mean',
  label: 'Σ(x·mask)/Σmask over the minibatch (RAGEN, verl’s default)',
  help: 'token-mean (the mean over every masked token of the minibatch; RAGEN’s config)',
  why: 'token-mean weights long sequences more',
  perToken: true,
  weightBy: 'tokens',
  reduce: maskedMean,
  ragenV1: true,
};
