// The paper-shape verdicts on hand-made run summaries: each claim seen, not seen, or not run.
import { describe, expect, it } from 'vitest';
import type { LoadedRun } from './analyze.js';
import { besidePaperSection, hasPaperCurves, heldFor } from './paper.js';

function run(
  algo: string,
  seed: number,
  collapseAt: number | null,
  peak = 0.6,
  final = 0.3,
  recovered = false,
): LoadedRun {
  return {
    env: 'x',
    variant: 'matched',
    algo,
    seed,
    dir: `${algo}-${seed}`,
    rows: [0, 1, 2, 3].map((iteration) => ({ iteration, 'rollout/successRate': 0.1 * iteration })),
    summary: {
      echoTrap: collapseAt !== null,
      recovered,
      peakSuccess: peak,
      finalSuccess: final,
      firstWarningLead: null,
      collapseIteration: collapseAt,
      firstFired: {},
      wallSeconds: 1,
      secondsPerIteration: 1,
      iterations: 40,
    },
  } as LoadedRun;
}

describe('beside the paper', () => {
  it('knows the paper envs only', () => {
    expect(['bandit/Bandit', 'frozenlake/FrozenLake-4x4', 'sokoban/Sokoban-6x6'].map(hasPaperCurves)).toEqual(
      [true, true, true],
    );
    expect(hasPaperCurves('minigrid/DoorKey-5x5')).toBe(false);
    expect(besidePaperSection('minigrid/DoorKey-5x5', [run('starpo-ppo', 1, 5)])).toBe('');
  });

  it('held = collapse iteration, or the whole run when it never collapsed', () => {
    expect(heldFor(run('a', 1, 12))).toBe(12);
    expect(heldFor(run('a', 1, null))).toBe(40);
  });

  it('Bandit: PPO holding longer than GRPO is seen; the reverse is not; no collapses do not separate', () => {
    const seen = besidePaperSection('bandit/Bandit', [
      run('starpo-ppo', 1, 30),
      run('starpo-ppo', 2, null), // held 40
      run('starpo-grpo', 1, 10),
      run('starpo-grpo', 2, 20),
    ]);
    expect(seen).toMatch(
      /\*\*Here:\*\* PPO longer than GRPO — seen: PPO held 35\.0 iterations on average \(trapped 1\/2\), GRPO 15\.0 \(trapped 2\/2\); StarPO-S stable — not run\./,
    );
    // start: mean of the first three rows (0, 0.1, 0.2) = 0.10; peak and final from the summaries.
    expect(seen).toMatch(
      /\| starpo-ppo \| peaks ≈ 0\.75 near step 100.* \| 2 \| 0\.10 → 0\.60 → 0\.30 \| 1\/2 \| 35\.0 \|/,
    );
    expect(seen).toMatch(/\| starpo-s \| ≈ 1\.0 at step 200 \| 0 \| not run \| – \| – \|/);
    const reversed = besidePaperSection('bandit/Bandit', [
      run('starpo-ppo', 1, 5),
      run('starpo-grpo', 1, 25),
    ]);
    expect(reversed).toMatch(/\*\*Here:\*\* PPO longer than GRPO — not seen: PPO held 5\.0/);
    const flat = besidePaperSection('bandit/Bandit', [
      run('starpo-ppo', 1, null),
      run('starpo-grpo', 1, null),
    ]);
    expect(flat).toMatch(/\*\*Here:\*\* PPO longer than GRPO — not separated: neither collapsed/);
    expect(besidePaperSection('bandit/Bandit', [run('starpo-ppo', 1, null)])).toMatch(
      /\*\*Here:\*\* PPO longer than GRPO — not run/,
    );
    const sTrapped = besidePaperSection('bandit/Bandit', [
      run('starpo-s', 1, 9, 0.9, 0.86, true),
      run('starpo-s', 2, 30),
    ]);
    expect(sTrapped).toMatch(/; StarPO-S stable — not seen: trapped 2\/2, 1 recovered\./);
    const sHeld = besidePaperSection('bandit/Bandit', [run('starpo-s', 1, null), run('starpo-s', 2, null)]);
    expect(sHeld).toMatch(/; StarPO-S stable — seen: trapped 0\/2\./);
  });

  it('Sokoban and FrozenLake: collapse without filtering, StarPO-S stable', () => {
    const seen = besidePaperSection('sokoban/Sokoban-6x6', [
      run('starpo-ppo', 1, 20),
      run('starpo-ppo', 2, 25),
      run('starpo-s', 1, null),
      run('starpo-s', 2, null),
    ]);
    expect(seen).toMatch(/\*\*Here:\*\* seen: vanilla StarPO trapped 2\/2, StarPO-S trapped 0\/2\./);
    const recovering = besidePaperSection('sokoban/Sokoban-6x6', [
      run('starpo-ppo', 1, 20),
      run('starpo-s', 1, 9, 0.9, 0.86, true),
      run('starpo-s', 2, null),
    ]);
    expect(recovering).toMatch(
      /\| starpo-s \| ≈ 0\.19 at step 200 \| 2 \| .* \| 1\/2 \(1 recovered\) \| 24\.5 \|/,
    );
    // StarPO-S never tripped the detector (no collapse verdict) but ended at 0 from a 0.1 start: fallen.
    const fallen = besidePaperSection('sokoban/Sokoban-6x6', [
      run('starpo-ppo', 1, 9, 0.21, 0.01),
      run('starpo-s', 1, null, 0.18, 0),
    ]);
    expect(fallen).toMatch(
      /not seen: vanilla StarPO trapped 1\/1, and StarPO-S trapped 0\/1, 1 more fell below half its start as well/,
    );
    expect(fallen).toMatch(
      /\| starpo-s \| ≈ 0\.19 at step 200 \| 1 \| 0\.10 → 0\.18 → 0\.00 \| 0\/1 \(1 more fell below half its start\) \| 40\.0 \|/,
    );
    const both = besidePaperSection('frozenlake/FrozenLake-4x4', [
      run('starpo-ppo', 1, 20),
      run('starpo-s', 1, 9),
    ]);
    expect(both).toMatch(/not seen: vanilla StarPO trapped 1\/1, and StarPO-S trapped 1\/1 as well/);
    const none = besidePaperSection('frozenlake/FrozenLake-4x4', [
      run('starpo-ppo', 1, null),
      run('starpo-s', 1, null),
    ]);
    expect(none).toMatch(/not seen: vanilla StarPO trapped 0\/1 \(no collapse to prevent\)/);
  });
});
