// The training samples of one iteration as the RL core passes them along: built from trajectories
// (batch.ts), scored and given advantages (prepare.ts), consumed by the updates (optimize.ts).
// Types only, so that no module of core/rl needs another's implementation to name them.

/** One training sequence: a trajectory, one of its history windows, or one turn. */
export interface Sample {
  /** Index of the trajectory in the iteration's kept list. */
  traj: number;
  group: number;
  /** 0-based turn for per-turn samples; −1 for whole-trajectory samples. */
  turn: number;
  ids: number[];
  /** [n−1] 1 where token t+1 is trained on. */
  lossMask: Float32Array;
  /** [n−1] 1 where token t+1 is an agent token. */
  agentMask: Float32Array;
  /** [n−1] token rewards (the trajectory or turn reward on its last agent token). */
  rewards: Float32Array;
  /** The sample's scalar reward (trajectory reward, or the turn's for per-turn samples). */
  reward: number;
  /** Target index of the value of the state before the response (per-turn samples). */
  stateIndex: number;
  /**
   * The sampler's log-probs on every loss token ([n−1], 0 elsewhere) when each response was
   * trained in the exact context it was sampled in (sampledLogp.ts); null otherwise.
   */
  sampledLogp?: Float32Array | null;
}

/** A sample with its old, reference and critic scores and its advantages (prepare.ts). */
export interface PreparedSample extends Sample {
  oldLogp: Float32Array;
  refLogp: Float32Array;
  oldValues: Float32Array;
  advantages: Float32Array;
  returns: Float32Array;
}
