// The pass before a Clip-Cov or KL-Cov step (core/variants/policyLosses): the log-probs of the
// weights the step starts from, read back once, and the tokens the covariance rule picks from them
// (variants/policyLosses/covSelect.ts), attached to the minibatch as `covSelected`. The step's own
// forward pass then computes the same log-probs again with their gradient. The other losses pick
// nothing and skip this pass.
import * as tf from '@tensorflow/tfjs';
import type { Model } from '../model/params.js';
import { maskedRows, policyLogProbs } from '../model/scoring.js';
import type { Rng } from '../rng.js';
import { policyLossOf } from '../variants/policyLosses.js';
import { type Minibatch, microRanges, sliceMinibatch } from './microBatch.js';
import { lossSettings, type PolicyStepSettings } from './update.js';

/** The step's starting log-probs [b·(T−1)], in pieces of at most `microRows` rows (0 off the mask). */
async function startingLogProbs(policy: Model, mb: Minibatch, s: PolicyStepSettings, microRows: number) {
  const W = mb.T - 1;
  const out = new Float32Array(mb.b * W);
  for (const [a, z] of microRanges(mb.b, microRows)) {
    const piece = sliceMinibatch(mb, a, z);
    const tokens = tf.tensor2d(piece.tokens, [piece.b, piece.T], 'int32');
    const { logp, entropy } = policyLogProbs(
      policy,
      tokens,
      s.temperature ?? 1,
      'train',
      maskedRows(piece.mask),
    );
    out.set((await logp.data()) as Float32Array, a * W);
    tf.dispose([tokens, logp, entropy]);
  }
  return out;
}

/** `mb` with the tokens its policy loss acts on (itself when the loss picks none). */
export async function withCovSelection(
  policy: Model,
  mb: Minibatch,
  s: PolicyStepSettings,
  rng: Rng | null,
  microRows = mb.b,
): Promise<Minibatch> {
  const row = policyLossOf(s.policyLoss ?? 'clip');
  if (!row.selects) return mb;
  const logp = await startingLogProbs(policy, mb, s, microRows);
  const selected = row.select(
    { logp, oldLogp: mb.oldLogp, advantages: mb.advantages, mask: mb.mask },
    lossSettings(s),
    rng,
  );
  return selected ? { ...mb, covSelected: selected } : mb;
}
