// The short soak in CI: 50 iterations on the nano model (WASM backend, as the CLI's default;
// the CPU backend is ~8× slower) with the soak's tiny rollouts and GRPO (no critic, to keep it
// short); tensor count and tensor bytes must be flat after the warm-up, nothing outlives the
// run, and the heap stays within its bound. The full 1,000 iterations with the critic:
// `npm run starpo -- soak`.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../cli/nodeBackend.js';
import { runSoak } from './soak.js';

beforeAll(async () => {
  await setupNodeBackend('wasm');
});

describe('soak (short)', () => {
  it('50 iterations keep the tensor count flat and the heap bounded', async () => {
    const counts: number[] = [];
    const r = await runSoak({
      iterations: 50,
      env: 'frozenlake/FrozenLake-4x4-det',
      algorithm: 'starpo-grpo',
      seed: 1,
      onIteration: (_, s) => counts.push(s.numTensors),
    });
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.iterations).toBe(50);
    expect(counts).toHaveLength(50);
    // Flat from the warm-up on, and the count is the live run's (not a trivially empty one).
    expect(new Set(counts.slice(5)).size).toBe(1);
    expect(counts[49]).toBeGreaterThan(50);
    expect(r.leakedTensors).toBe(0);
    expect(r.faults).toBe(0);
  }, 240_000);
});
