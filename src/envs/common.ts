// Pieces every text environment shares: the reply to an action after the episode has ended,
// an unusable action's result, and the "not understood" line the next observation starts with.
import type { StepResult } from './types.js';

/** What an action that changed nothing reports. */
export const NO_EFFECT = Object.freeze({ success: false, actionIsValid: false, actionIsEffective: false });

/** The reply to a step after the episode ended: done, no reward, no change. */
export function endedStep(observation: string): StepResult {
  return { observation, reward: 0, done: true, info: { ...NO_EFFECT } };
}

/** The result of an action that was not understood (the env did not move). */
export function invalidStep(observation: string, done: boolean): StepResult {
  return { observation, reward: 0, done, info: { ...NO_EFFECT } };
}

/** First line of the observation after text that is not an action. */
export function notUnderstoodLine(valid: readonly string[]): string {
  return `Your previous action was not understood. Valid actions: ${valid.join(', ')}.`;
}
