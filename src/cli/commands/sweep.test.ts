import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepTable } from '../../core/files/sweepBundle.js';
import { runCommand, TINY_ROLLOUT_FLAGS } from '../testing.js';
import { sweepCommand } from './sweep.js';

const TINY = [
  '--env',
  'minigrid/Empty-5x5',
  '--base',
  'random',
  '--backend',
  'wasm',
  '--iters',
  '2',
  ...TINY_ROLLOUT_FLAGS,
  '--eval-every',
  '0',
  '--mi-every',
  '0',
];

describe('sweepTable', () => {
  it('aggregates runs per preset and algorithm', () => {
    const r = (algo: string, trap: boolean, peak: number, final: number) => ({
      preset: 'p',
      algo,
      seed: 1,
      echoTrap: trap,
      recovered: false,
      peakSuccess: peak,
      finalSuccess: final,
      firstWarningLead: null,
      wallSeconds: 1,
    });
    expect(sweepTable([r('a', true, 0.6, 0.1), r('a', false, 0.4, 0.3), r('b', false, 0.2, 0.2)])).toEqual([
      { preset: 'p', algo: 'a', runs: 2, echoTraps: 1, meanPeak: 0.5, meanFinal: 0.2 },
      { preset: 'p', algo: 'b', runs: 1, echoTraps: 0, meanPeak: 0.2, meanFinal: 0.2 },
    ]);
  });
});

describe('sweep command', () => {
  it('runs algorithms × seeds, writes the table, resumes as a no-op and detects a changed config', async () => {
    const out = await mkdtemp(join(tmpdir(), 'starpo-sweep-'));
    const args = ['--out', out, '--algos', 'starpo-grpo,dpo-online', '--seeds', '1', ...TINY];
    const first = await runCommand(sweepCommand, args);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/\| custom \| starpo-grpo \| 1 \|/);
    const table = JSON.parse(await readFile(join(out, 'table.json'), 'utf8'));
    expect(table.table.map((r: { algo: string }) => r.algo)).toEqual(['starpo-grpo', 'dpo-online']);
    const again = await runCommand(sweepCommand, args);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/2 already done, 0 to run/);
    const changed = await runCommand(sweepCommand, [...args, '--lr', '0.01']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/different config/);
  });

  it('runs jobs in child processes', async () => {
    const out = await mkdtemp(join(tmpdir(), 'starpo-sweep-'));
    const r = await runCommand(sweepCommand, [
      '--out',
      out,
      '--algos',
      'starpo-grpo',
      '--seeds',
      '1,2',
      '--jobs',
      '2',
      ...TINY,
    ]);
    expect(r.stderr).not.toMatch(/failed|Error/);
    expect(r.code).toBe(0);
    const summary = JSON.parse(
      await readFile(join(out, 'custom', 'starpo-grpo', 'seed-2', 'summary.json'), 'utf8'),
    );
    expect(summary).toMatchObject({ seed: 2, completed: true, algo: 'starpo-grpo' });
  });
});
