// Numerical faults of a run (docs/security.md, "Numerical faults"): a NaN/Inf in a loss, a
// gradient, the weights after an update, or the logits while sampling stops that iteration's update and the trainer goes back
// to the last good weights. One bad iteration is noise; MAX_CONSECUTIVE_FAULTS in a row means
// the settings are wrong, so the run pauses with a concrete suggestion instead of burning time.
import * as tf from '@tensorflow/tfjs';
import type { Config } from '../config.js';
import { cloneModel, copyWeights, disposeModel, type Model, modelVariables } from '../model/params.js';
import { sumScalars } from './update.js';

/** Non-finite iterations in a row after which the trainer pauses the run. */
export const MAX_CONSECUTIVE_FAULTS = 3;

/** A step rounded to one significant digit (0.0033 → 0.003), for a suggestion people can type. */
function roundOne(x: number): number {
  return Number(x.toPrecision(1));
}

/**
 * What to change after repeated non-finite iterations: above all a lower learning rate (a third
 * of the current one, not below 1e-7), and gradient clipping when it is off.
 */
export function faultSuggestion(config: Pick<Config, 'lr' | 'gradClip'>): string {
  // The lr field allows 0 (the frozen control), but a run that faults needs a smaller step, not none.
  const min = 1e-7;
  const parts: string[] = [];
  const lower = Math.max(min, roundOne(config.lr / 3));
  if (lower < config.lr) parts.push(`lower the learning rate (now ${config.lr}) to ${lower}`);
  if (config.gradClip === 0) parts.push('turn on gradient-norm clipping (e.g. 1)');
  if (parts.length === 0) {
    parts.push(
      `the learning rate is already at its minimum (${min}): check the base model and the environment's rewards`,
    );
  }
  return parts.join('; ');
}

/**
 * Whether every weight of `models` is finite. One small readback: Σ (w · 0) over all weights is 0
 * when they are all finite and NaN as soon as one is NaN or ±Inf (Inf · 0 = NaN).
 */
export async function weightsFinite(models: readonly (Model | null)[]): Promise<boolean> {
  const vars = models.flatMap((m) => (m ? modelVariables(m) : []));
  if (vars.length === 0) return true;
  // NaN·0 = NaN and Inf·0 = NaN, so the sum is 0 exactly when every weight is finite.
  const probe = tf.tidy(() => sumScalars(vars.map((v) => tf.sum(tf.mul(v, 0)))));
  const [value] = await probe.data();
  probe.dispose();
  return value === 0;
}

/**
 * The weights to go back to after a non-finite step: a copy of the policy taken by `save` before
 * each update (and at a resume), and the critic's own snapshot wherever it lives (criticHost.ts).
 * `dispose` frees the policy's copy, not the models.
 */
export class LastGoodWeights {
  private readonly policyCopy: Model;

  constructor(
    private readonly policy: Model,
    private readonly critic: { save(): void; restore(): void } | null,
  ) {
    this.policyCopy = cloneModel(policy, false);
  }

  save(): void {
    copyWeights(this.policyCopy, this.policy);
    this.critic?.save();
  }

  restore(): void {
    copyWeights(this.policy, this.policyCopy);
    this.critic?.restore();
  }

  dispose(): void {
    disposeModel(this.policyCopy);
  }
}
