// Pieces every text environment shares: the guard its step() starts with, the reply to an action
// after the episode has ended, an unusable action's result, and the "not understood" line the
// next observation starts with.
import { MAX_ACTION_CHARS, type StepResult } from './types.js';

/** What an action that changed nothing reports. */
export const NO_EFFECT = Object.freeze({ success: false, actionIsValid: false, actionIsEffective: false });

/** The reply to a step after the episode ended: done, no reward, no change. */
export function endedStep(observation: string): StepResult {
  return { observation, reward: 0, done: true, info: { ...NO_EFFECT } };
}

/**
 * The guard every step() starts with (as MiniGrid's base step() checks its state first): a step
 * before reset(seed) is a programming error; after the episode ended the reply is done, with no
 * reward and no change. Null: go on with the step.
 */
export function guardStep(
  id: string,
  started: boolean,
  finished: boolean,
  lastObservation: string,
): StepResult | null {
  if (!started) throw new Error(`${id}: call reset(seed) before step()`);
  return finished ? endedStep(lastObservation) : null;
}

/** The text an env parses as its action: one over MAX_ACTION_CHARS is read as nothing (not understood). */
export function actionText(action: string): string {
  return action.length > MAX_ACTION_CHARS ? '' : action;
}

/** The result of an action that was not understood (the env did not move). */
export function invalidStep(observation: string, done: boolean): StepResult {
  return { observation, reward: 0, done, info: { ...NO_EFFECT } };
}

/** First line of the observation after text that is not an action. */
export function notUnderstoodLine(valid: readonly string[]): string {
  return `Your previous action was not understood. Valid actions: ${valid.join(', ')}.`;
}
