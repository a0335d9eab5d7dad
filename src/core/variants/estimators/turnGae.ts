// A critic and GAE over the turns of each trajectory, one sample per turn with only its own state,
// the turn's state valued by the critic (the `ppo-turn` baseline).
import { turnGae as gaeOverTurns, indicesBy } from './math.js';
import { type EstimatedAdvantages, type EstimatorInput, type EstimatorVariant, zeros } from './variant.js';

function turnGaeAdvantages(x: EstimatorInput): EstimatedAdvantages {
  const { samples } = x;
  const advantages = zeros(samples);
  const returns = zeros(samples);
  for (const idx of indicesBy(samples.map((s) => s.traj)).values()) {
    const turnRewards = idx.map((i) => x.penalised(i, false));
    const values = idx.map((i) => x.values[i]![samples[i]!.stateIndex] ?? 0);
    // Running out of turns or actions is terminal, as in RAGEN (GAE's next value after the
    // last token is 0): bootstrapping a cut trajectory with the value of its own last state
    // (the state after the last action is never scored) made its last advantage r ≥ 0, so
    // timing out could never be punished.
    const r = gaeOverTurns(turnRewards, values, x.gamma, x.lambda, 0);
    idx.forEach((i, j) => {
      const s = samples[i]!;
      for (let t = 0; t < s.lossMask.length; t++) {
        if (s.lossMask[t] !== 1) continue;
        advantages[i]![t] = r.advantages[j] as number;
        returns[i]![t] = r.returns[j] as number;
      }
    });
  }
  return { advantages, returns };
}

export const turnGae: EstimatorVariant<'turn-gae'> = {
  name: 'turn-gae',
  label: 'critic + GAE over turns, one sample per turn',
  help: 'turn-gae (a critic and GAE over turns)',
  critic: true,
  samples: 'turn',
  ragen: null,
  objective: 'clipped-surrogate',
  minGroupSize: 1,
  groupSizeWhy: '',
  advantages: turnGaeAdvantages,
};
