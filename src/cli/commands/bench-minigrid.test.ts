// `starpo bench-minigrid`: prints the benchmark as JSON and refuses bad options.
import { describe, expect, it } from 'vitest';
import { runCommand, usageErrorOf } from '../testing.js';
import { benchMinigridCommand } from './bench-minigrid.js';

describe('bench-minigrid command', () => {
  it('prints one row per requested id', async () => {
    const args = [
      '--ids',
      'minigrid/DoorKey-5x5,minigrid/Unlock',
      '--steps',
      '500',
      '--expert-episodes',
      '3',
    ];
    const res = await runCommand(benchMinigridCommand, args);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.rows.map((r: { id: string }) => r.id)).toEqual(['minigrid/DoorKey-5x5', 'minigrid/Unlock']);
    for (const r of out.rows) {
      expect(r.stepsPerSec).toBeGreaterThan(0);
      expect(r.expertSuccessRate).toBe(1);
    }
  });

  it('refuses bad options with a usage error', async () => {
    expect(await usageErrorOf(benchMinigridCommand, ['--steps', '0'])).toMatch('--steps must be an integer');
    expect(await usageErrorOf(benchMinigridCommand, ['--frobnicate', '1'])).toMatch(
      'unknown flag --frobnicate',
    );
    expect(await usageErrorOf(benchMinigridCommand, ['--ids', 'minigrid/Nope'])).toMatch('unknown ids');
  });
});
