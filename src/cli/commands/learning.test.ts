// Learning (issue 6): from the shipped nano DoorKey-5x5 base model, `starpo-ppo` and
// `starpo-s` raise the training success clearly within a short seeded CPU run, and
// `starpo-grpo` updates the policy away from the base. Each run is the real `train` command on the WASM backend;
// the settings and the threshold come from measured runs (README, "Learning check"), and the
// same seed and backend give the same run, so the margin is against code changes, not luck.
import { describe, expect, it } from 'vitest';
import { trainMetrics } from '../trainTesting.js';

/**
 * Iterations and step size per algorithm, measured (docs/echo-trap.md, round 9): `starpo-ppo` at
 * lr 1e-4 is the learner that holds (seed 1 rose 0.27 by this measure over 20 iterations; all 8
 * of its seeds rose and none fell back); `starpo-s` keeps 2 of the 8 groups and made 4 steps on
 * them at lr 3e-4 (rise 0.17; at 5e-4 it broke at once).
 */
const SETTINGS: Record<string, { iterations: number; lr: string }> = {
  'starpo-ppo': { iterations: 20, lr: '1e-4' },
  'starpo-s': { iterations: 20, lr: '3e-4' },
};
/** Mean success of the last 3 iterations minus that of the first 3 must exceed this. */
const MIN_RISE = 0.1;

/** 8 groups × 4 rollouts at T = 0.7 (the base succeeds ~25% there), 4 Adam steps an iteration. */
const SHORT_RUN = [
  ['--env', 'minigrid/DoorKey-5x5'],
  ['--seed', '1'],
  ['--backend', 'wasm'],
  ['--groups', '8'],
  ['--group-size', '4'],
  ['--temperature', '0.7'],
  ['--steps-per-iter', '4'],
  ['--eval-every', '0'],
  ['--mi-every', '0'],
  ['--checkpoint-every', '0'],
].flat();

/** Runs `train` and returns the per-iteration training success. */
async function trainSuccess(algo: string, iterations: number, lr = '3e-4'): Promise<number[]> {
  const rows = await trainMetrics([
    ...SHORT_RUN,
    ...['--quiet', '--algo', algo, '--iters', String(iterations), '--lr', lr],
  ]);
  expect(rows).toHaveLength(iterations);
  return rows.map((row) => row['rollout/successRate'] as number);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('short CPU runs from the DoorKey-5x5 base model', () => {
  for (const algo of ['starpo-ppo', 'starpo-s']) {
    it(`${algo} raises the training success`, { timeout: 1_800_000 }, async () => {
      const { iterations, lr } = SETTINGS[algo] as { iterations: number; lr: string };
      const s = await trainSuccess(algo, iterations, lr);
      const rise = mean(s.slice(-3)) - mean(s.slice(0, 3));
      expect(rise, `success per iteration: ${s.map((x) => x.toFixed(2)).join(' ')}`).toBeGreaterThan(
        MIN_RISE,
      );
    });
  }

  it('starpo-grpo updates the policy: 4 steps an iteration, and it moves away from the base', {
    timeout: 300_000,
  }, async () => {
    const rows = await trainMetrics([
      ...SHORT_RUN,
      ...['--quiet', '--algo', 'starpo-grpo', '--iters', '2', '--lr', '3e-4'],
    ]);
    expect(rows.map((r) => r['actor/optimizerSteps'])).toEqual([4, 4]);
    // Iteration 0 samples from the base itself (KL to the reference 0); after 4 steps it has moved.
    expect(Math.abs(rows[0]?.['actor/klRef'] as number)).toBeLessThan(1e-6);
    expect(Math.abs(rows[1]?.['actor/klRef'] as number)).toBeGreaterThan(1e-5);
    for (const r of rows) expect(r['rollout/successRate']).toBeGreaterThan(0);
  });
});
