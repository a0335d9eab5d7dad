// A prepared sample for the update's tests: one window of trajectory `traj` in group `group`,
// its last `trained` targets in the loss, every other array zero unless given.
import { Rng } from '../rng.js';
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

/**
 * 8 one-window trajectories of 10 random token ids (vocabulary 1–20), two to a group, rewards
 * alternating 0 and 1, their last 4 targets in the loss with advantages in [−1, 1); `fill` sets
 * each test's other arrays from the same stream. The update tests' shared batch.
 */
export function randomBatch(fill: (s: PreparedSample, rng: Rng) => void): PreparedSample[] {
  const rng = new Rng(3);
  return Array.from({ length: 8 }, (_, t) => {
    const s = preparedSample(
      t,
      t >> 1,
      t % 2,
      Array.from({ length: 10 }, () => 1 + Math.floor(rng.float() * 20)),
      4,
    );
    s.advantages = s.lossMask.map((m) => m * (rng.float() * 2 - 1));
    fill(s, rng);
    return s;
  });
}
