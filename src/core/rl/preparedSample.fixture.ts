// A prepared sample for the update's tests: one window of trajectory `traj` in group `group`,
// its last `trained` targets in the loss, every other array zero unless given.
import type { PreparedSample } from './samples.js';

export function preparedSample(
  traj: number,
  group: number,
  reward: number,
  ids: number[],
  trained: number,
  refLogp?: Float32Array,
): PreparedSample {
  const n = ids.length - 1;
  const lossMask = Float32Array.from({ length: n }, (_, t) => (t >= n - trained ? 1 : 0));
  const z = () => new Float32Array(n);
  return {
    traj,
    group,
    turn: -1,
    ids,
    lossMask,
    agentMask: Float32Array.from(lossMask),
    rewards: z(),
    reward,
    stateIndex: -1,
    oldLogp: z(),
    refLogp: refLogp ?? z(),
    oldValues: z(),
    advantages: z(),
    returns: z(),
  };
}
