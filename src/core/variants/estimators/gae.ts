// A critic and GAE over the agent's tokens (RAGEN's PPO path; verl compute_gae_advantage_return).
import { gae as tokenGae } from './math.js';
import type { EstimatedAdvantages, EstimatorInput, EstimatorVariant } from './variant.js';

function tokenGaeAdvantages(x: EstimatorInput): EstimatedAdvantages {
  const advantages: Float32Array[] = [];
  const returns: Float32Array[] = [];
  x.samples.forEach((s, i) => {
    const r = tokenGae(x.rewards[i]!, x.values[i]!, s.lossMask, 1, s.lossMask.length, x.gamma, x.lambda);
    advantages.push(r.advantages);
    returns.push(r.returns);
  });
  return { advantages, returns };
}

export const gae: EstimatorVariant<'gae'> = {
  name: 'gae',
  label: 'critic + GAE over the agent’s tokens',
  help: 'gae (a critic and GAE over the agent’s tokens)',
  critic: true,
  samples: 'trajectory',
  ragen: 'gae',
  objective: 'clipped-surrogate',
  minGroupSize: 1,
  groupSizeWhy: '',
  advantages: tokenGaeAdvantages,
};
