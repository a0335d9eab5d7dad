// The frozen control, named once: a run at learning rate 0, the null against which a fall is
// judged. Its policy stays bit-identical to the base (Adam with step size 0 moves nothing), so
// the trainer skips the update and filterRollout.ts DAPO's refill, and the iteration is a rollout
// with its measurements (frozenControl.test.ts checks the weights). Every place that makes a frozen run
// or asks whether a run is one goes through this file, so the rule has a single home.
import type { Config } from '../config.js';

/** The config edit that makes a run the frozen control. */
export const FROZEN_CONTROL = { lr: 0 } as const satisfies Partial<Config>;

/**
 * Whether `config` is the frozen control: a learning rate of exactly 0. Read per iteration by the
 * trainer, so a live change of `lr` to or from 0 takes effect at the next iteration.
 */
export function isFrozenControl(config: Pick<Config, 'lr'>): boolean {
  return config.lr === FROZEN_CONTROL.lr;
}
