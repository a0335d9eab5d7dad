// The registry's held-out mapping: every trainer (browser worker, CLI, bench, soak) evaluates a
// run on evalEnvId(env) — the browser once used the train env, so its WebShop-lite "held-out"
// success was measured on training goals (parity.spec.ts caught it).
import { describe, expect, it } from 'vitest';
import { evalEnvId } from './registry.js';

describe('evalEnvId', () => {
  it("is WebShop-lite's held-out goals for its train env, and the env itself where there is no held-out variant", () => {
    expect(evalEnvId('webshop/lite')).toBe('webshop/lite-eval');
    expect(evalEnvId('minigrid/DoorKey-5x5')).toBe('minigrid/DoorKey-5x5');
    expect(() => evalEnvId('nope/None')).toThrow(/unknown environment id/);
  });
});
