// A trajectory as a rollout records it (rl/rollout.ts) and as the metrics read it
// (metrics/rolloutMetrics.ts, metrics/mi.ts): plain data, below both.
import type { ParsedResponse } from './parse.js';

/** What one action did. */
export interface ActionOutcome {
  action: string;
  reward: number;
  valid: boolean;
  effective: boolean;
}

/** One turn of a trajectory, as recorded. */
export interface TurnRecord {
  observation: string;
  actionsLeft: number;
  /** The prompt the policy saw this turn (token ids). */
  promptIds: number[];
  responseIds: number[];
  responseText: string;
  /** Log-probs of the response tokens under the policy at sampling time. */
  logps: number[];
  parsed: ParsedResponse;
  /** Actions sent to the env (empty when the answer was unusable). */
  actions: string[];
  outcomes: ActionOutcome[];
  /** Sum of the env rewards of this turn. */
  envReward: number;
  /** The turn was penalised (malformed answer, no action, or an invalid action). */
  penalised: boolean;
  /** envReward − penalty. */
  reward: number;
}

export interface Trajectory {
  group: number;
  seed: number;
  instruction: string;
  turns: TurnRecord[];
  /** Σ env rewards − formatPenalty × penalised turns. */
  reward: number;
  success: boolean;
  /** The episode ended in the environment (false when cut by the turn limit or budget). */
  done: boolean;
}
