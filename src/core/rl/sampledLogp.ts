// The sampler's log-probs as the update's old log-probs (issue 22). sampleBatch records, for each
// generated token, log softmax(logits ÷ T) under the weights that sampled it — what the scorer
// would compute for the update, at the same temperature, before any update. A training window
// reuses them where the sequence before a response is exactly the prompt the policy saw that
// turn (same tokens, so the same positions): every response of a window that starts the
// trajectory, the last of every later one, and every per-turn sample. A window with any loss
// token not covered (env tokens in the loss, a response sampled in a longer history) is scored.
import type { TurnSpan } from '../prompt.js';
import type { Trajectory } from './rollout.js';

/** Whether `ids` begins with exactly `prefix` and is `prefix.length` long up to `end`. */
function samePrefix(ids: readonly number[], prefix: readonly number[], end: number): boolean {
  if (prefix.length !== end) return false;
  for (let i = 0; i < end; i++) if (ids[i] !== prefix[i]) return false;
  return true;
}

/**
 * The old log-probs of a sample in target coordinates ([n−1]; 0 off the loss mask) from the
 * sampler's records, or null when some loss token has none.
 */
export function sampledOldLogp(
  ids: readonly number[],
  spans: readonly TurnSpan[],
  traj: Trajectory,
  lossMask: Float32Array,
): Float32Array | null {
  const out = new Float32Array(lossMask.length);
  const covered = new Uint8Array(lossMask.length);
  for (const span of spans) {
    const turn = traj.turns[span.turn - 1];
    if (!turn) continue;
    const n = span.responseEnd - span.responseStart;
    if (n === 0 || n !== turn.logps.length) continue;
    if (!samePrefix(ids, turn.promptIds, span.responseStart)) continue;
    // Token responseStart + j is predicted from position responseStart + j − 1.
    for (let j = 0; j < n; j++) {
      const t = span.responseStart + j - 1;
      if (t < 0 || t >= out.length) continue;
      out[t] = turn.logps[j] as number;
      covered[t] = 1;
    }
  }
  for (let t = 0; t < lossMask.length; t++) if (lossMask[t] === 1 && covered[t] !== 1) return null;
  return out;
}
