// The `instance` argument of reset: rollouts of one group share the start state of their seed
// but draw their own luck (slips, payouts, moving obstacles), and each instance is reproducible.
import { describe, expect, it } from 'vitest';
import { makeEnv } from './registry.js';

function play(id: string, seed: number, instance: number, actions: readonly string[]): string[] {
  const env = makeEnv(id);
  const out = [env.reset(seed, instance)];
  for (const a of actions) {
    const r = env.step(a);
    out.push(`${r.observation}|${r.reward}|${r.done}`);
    if (r.done) break;
  }
  return out;
}

const cases: [string, string[]][] = [
  ['frozenlake/FrozenLake-4x4', ['Right', 'Down', 'Right', 'Down', 'Left', 'Down']],
  ['bandit/Bandit', ['Dragon']],
  ['minigrid/Dynamic-Obstacles-8x8', ['turn left', 'turn right', 'turn left', 'turn right']],
];

describe('reset instance', () => {
  it.each(cases)('%s: same start, different luck, reproducible', (id, actions) => {
    for (const seed of [3, 11]) {
      const runs = Array.from({ length: 24 }, (_, k) => play(id, seed, k, actions));
      for (const r of runs) expect(r[0]).toBe(runs[0]![0]);
      expect(new Set(runs.map((r) => r.join('\n'))).size).toBeGreaterThan(1);
      expect(play(id, seed, 5, actions)).toEqual(runs[5]);
    }
  });

  it('deterministic envs ignore the instance', () => {
    expect(play('minigrid/DoorKey-5x5', 4, 7, ['turn left', 'go forward'])).toEqual(
      play('minigrid/DoorKey-5x5', 4, 0, ['turn left', 'go forward']),
    );
  });
});
