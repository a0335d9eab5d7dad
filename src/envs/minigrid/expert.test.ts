// The scripted experts: success on 200 seeds of at least one id per family (≥ 99% for the
// deterministic families, ≥ 85% for Dynamic-Obstacles), valid action phrases, one-line reasons.
import { describe, expect, it } from 'vitest';
import { minigridEnvs, minigridExpert } from './index.js';

const IDS = [
  'minigrid/Empty-8x8',
  'minigrid/Empty-Random-6x6',
  'minigrid/DoorKey-8x8',
  'minigrid/FourRooms',
  'minigrid/LavaGapS7',
  'minigrid/LavaCrossingS11N5',
  'minigrid/SimpleCrossingS9N3',
  'minigrid/MultiRoom-N4-S5',
  'minigrid/MultiRoom-N6',
  'minigrid/Unlock',
  'minigrid/KeyCorridorS3R1',
  'minigrid/KeyCorridorS5R3',
  'minigrid/GoToDoor-8x8',
  'minigrid/Fetch-8x8-N3',
  'minigrid/MemoryS7',
  'minigrid/MemoryS17Random',
  'minigrid/DistShift1',
  'minigrid/DistShift2',
  'minigrid/RedBlueDoors-8x8',
  'minigrid/Dynamic-Obstacles-8x8',
  'minigrid/Dynamic-Obstacles-Random-6x6',
];

describe('scripted expert', () => {
  it('covers every family', () => {
    const families = new Set(minigridEnvs.map((s) => s.family));
    const covered = new Set(IDS.map((id) => minigridEnvs.find((s) => s.id === id)?.family));
    expect([...families].filter((f) => !covered.has(f))).toEqual([]);
  });

  it.each(IDS)('%s succeeds on 200 seeds', (id) => {
    const spec = minigridEnvs.find((s) => s.id === id);
    if (!spec) throw new Error(id);
    const env = spec.make();
    const valid = new Set(env.validActions());
    let successes = 0;
    for (let seed = 0; seed < 200; seed++) {
      env.reset(seed);
      for (;;) {
        const { action, reason } = minigridExpert(env);
        expect(valid.has(action), `${id} seed ${seed}: ${action}`).toBe(true);
        expect(reason).toMatch(
          /^[^\n]+, (turn left|turn right|go forward|pick up|drop|toggle|done)( and wait)?$/,
        );
        const r = env.step(action);
        expect(r.info.actionIsValid).toBe(true);
        if (r.done) {
          if (r.info.success) successes++;
          break;
        }
      }
    }
    expect(successes / 200).toBeGreaterThanOrEqual(spec.stochastic ? 0.85 : 0.99);
  });

  it('explains its first DoorKey step with the target and the action', () => {
    const env = minigridEnvs.find((s) => s.id === 'minigrid/DoorKey-5x5')?.make();
    if (!env) throw new Error('missing');
    env.reset(3);
    const { action, reason } = minigridExpert(env);
    expect(reason).toMatch(
      /^the yellow key is (here|(\d+ steps? (left|right|forward|behind))( and \d+ steps? (forward|behind))?), /,
    );
    expect(reason.endsWith(`, ${action}`)).toBe(true);
  });

  it('refuses envs that are not MiniGrid', () => {
    const fake = {
      id: 'x',
      reset: () => '',
      step: () => ({
        observation: '',
        reward: 0,
        done: true,
        info: { success: false, actionIsValid: true, actionIsEffective: false },
      }),
      instruction: () => '',
      validActions: () => null,
      view: () => ({}),
    };
    expect(() => minigridExpert(fake)).toThrow('not a MiniGrid env');
  });
});
