// The `instance` argument of reset: rollouts of one group share the start state of their seed,
// and their luck (slips, payouts, moving obstacles) is shared or their own by the trainer's
// `groupStreams` switch (core/rl/envPool.ts streamInstance); each instance is reproducible.
import { describe, expect, it } from 'vitest';
import { type GroupStreams, InProcessEnvPool, streamInstance } from '../core/rl/envPool.js';
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

/** One group of `n` rollouts from `seed` through core's pool, every slot sent the same actions. */
async function group(id: string, seed: number, mode: GroupStreams, actions: readonly string[], n = 16) {
  const pool = new InProcessEnvPool(() => makeEnv(id));
  const slots = Array.from({ length: n }, (_, k) => k);
  const runs = (
    await pool.reset(
      slots.map(() => seed),
      slots.map((k) => streamInstance(mode, k)),
    )
  ).map((r) => [r.observation]);
  const live = new Set(slots);
  for (const a of actions) {
    const batch = [...live].map((slot) => ({ slot, actions: [a] }));
    if (batch.length === 0) break;
    (await pool.step(batch)).forEach((r, j) => {
      const slot = batch[j]!.slot;
      runs[slot]!.push(`${r.observation}|${r.outcomes.map((o) => o.reward).join(',')}|${r.done}`);
      if (r.done) live.delete(slot);
    });
  }
  return runs.map((r) => r.join('\n'));
}

describe('group streams (RAGEN resets a whole group with one seed)', () => {
  it.each(cases)(
    '%s: shared ⇒ identical transitions for identical actions; independent ⇒ not',
    async (id, actions) => {
      let differed = 0;
      for (const seed of [3, 11]) {
        const shared = await group(id, seed, 'shared', actions);
        expect(new Set(shared).size).toBe(1);
        const independent = await group(id, seed, 'independent', actions);
        expect(independent[0]).toBe(shared[0]);
        if (new Set(independent).size > 1) differed++;
      }
      expect(differed).toBe(2);
    },
  );
});
