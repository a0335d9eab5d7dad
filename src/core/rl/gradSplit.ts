// RAGEN-2's gradient split (its gradient_reporter logs actor/grad_norm/{task,kl,entropy}): the
// policy gradient's norm taken apart into the task loss's, the KL-to-reference loss's and the
// entropy bonus's, on one minibatch, without stepping. RAGEN-2's claim: once in-group reward
// variance is low the task part shrinks while the KL and entropy parts do not, so the regularisers
// steer the update. Norms do not add over micro-batches, so each part's gradient is accumulated
// over the pieces first (microBatch.ts) and its norm taken once. A part absent from the loss
// (KL in the reward or off, entropy coefficient 0) is left out of the row.
import * as tf from '@tensorflow/tfjs';
import type { MetricKey } from '../metrics/keys.js';
import type { Model } from '../model/params.js';
import { modelVariables } from '../model/params.js';
import { accumulatedGrads, type Minibatch, microBatches } from './microBatch.js';
import {
  globalNorm,
  type LossPart,
  type PolicyStepSettings,
  policyLoss,
  type StepMetrics,
} from './update.js';

/** Each part, its row key, and whether the step's loss has it. */
const PARTS: readonly [LossPart, MetricKey, (s: PolicyStepSettings) => boolean][] = [
  ['task', 'actor/gradNorm/task', () => true],
  ['kl', 'actor/gradNorm/kl', (s) => s.klLossCoef > 0],
  ['entropy', 'actor/gradNorm/entropy', (s) => s.entropyCoef > 0],
];

/** The norms of the task, KL and entropy parts of the policy gradient on `mb` (nothing applied). */
export async function gradientSplit(
  policy: Model,
  mb: Minibatch,
  s: PolicyStepSettings,
  microRows = mb.b,
): Promise<StepMetrics> {
  const vars = modelVariables(policy);
  const out: StepMetrics = {};
  for (const [part, key, present] of PARTS) {
    if (!present(s)) continue;
    const micro = microBatches(mb, microRows).map((p) => policyLoss(policy, p, s, part));
    try {
      const { value, grads, named } = accumulatedGrads(micro, vars);
      const norm = globalNorm(grads);
      out[key] = (await norm.data())[0] as number;
      tf.dispose([value, norm, ...Object.values(grads), ...Object.values(named)]);
    } finally {
      tf.dispose(micro.flatMap((m) => m.tensors));
    }
  }
  return out;
}
