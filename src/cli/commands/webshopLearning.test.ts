// Learning on WebShop-lite (issue 19): from the shipped webshop-lite-nano base model, the
// `webshop-pool` preset — `starpo-grpo` on a fixed pool of 8 training goals (`startPool`: every
// iteration the same goals, so a rise is the policy getting better at them and not a luckier
// draw) — beats its frozen control: the same run at lr 0, which rolls out the same goals with
// the same sampling stream. Each run is the real `train` command on the WASM backend from the
// models index (the base a person gets). The margin comes from measured runs
// (docs/webshop-base.md, "RL from the base"): over the last 8 of 15 iterations the success gap
// was +0.09 on seed 1, +0.03 on seeds 2 and 3 (whose gain is mostly in mean reward, +0.15 and
// +0.10); this test runs seed 1, and the same seed and backend give the same run, so the
// margin is against code changes, not luck.
import { describe, expect, it } from 'vitest';
import { trainMetrics } from '../trainTesting.js';

/** Iterations of each run; the comparison is over the last LAST of them. */
const ITERATIONS = 6;
const LAST = 3;
/** The run's mean training success over its last LAST iterations minus the control's must exceed this. */
const MIN_GAP = 0.05;

/** The webshop-pool preset (8 goals × 4 rollouts at T = 1, 4 Adam steps an iteration), shortened. */
const POOL_RUN = [
  ['--preset', 'webshop-pool'],
  ['--seed', '1'],
  ['--backend', 'wasm'],
  ['--iters', String(ITERATIONS)],
  ['--eval-every', '0'],
  ['--checkpoint-every', '0'],
  ['--quiet'],
].flat();

async function success(lr: string): Promise<number[]> {
  const rows = await trainMetrics([...POOL_RUN, '--lr', lr]);
  expect(rows).toHaveLength(ITERATIONS);
  return rows.map((row) => row['rollout/successRate'] as number);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('WebShop-lite RL from the shipped base model', () => {
  it('starpo-grpo on a fixed pool of goals beats its frozen control', { timeout: 1_800_000 }, async () => {
    const run = await success('3e-4');
    const control = await success('0');
    const shown = `run ${run.map((x) => x.toFixed(2)).join(' ')}; control ${control.map((x) => x.toFixed(2)).join(' ')}`;
    // Before the first update both roll out the same policy on the same goals and stream.
    expect(run[0], shown).toBe(control[0]);
    expect(mean(run.slice(-LAST)) - mean(control.slice(-LAST)), shown).toBeGreaterThan(MIN_GAP);
  });
});
