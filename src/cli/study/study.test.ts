import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepCommand } from '../commands/sweep.js';
import { runCommand } from '../testing.js';
import { lineChartSvg } from './svg.js';

const TINY = [
  '--base',
  'random',
  '--backend',
  'cpu',
  '--iters',
  '2',
  '--groups',
  '2',
  '--group-size',
  '2',
  '--max-turns',
  '1',
  '--max-tokens',
  '6',
  '--context',
  '128',
  '--eval-every',
  '1',
  '--eval-episodes',
  '2',
  '--mi-every',
  '0',
  '--steps-per-iter',
  '1',
];

describe('echo-trap study', () => {
  it('runs a tiny study, writes results, tables and figures, resumes, and detects a changed config', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-study-'));
    const out = join(dir, 'results');
    const docs = join(dir, 'docs', 'echo-trap.md');
    const args = [
      '--study',
      'echo-trap',
      '--envs',
      'minigrid/Empty-5x5',
      '--algos',
      'starpo-ppo,starpo-s',
      '--seeds',
      '2',
      '--ablations',
      'false',
      '--out',
      out,
      '--docs',
      docs,
      ...TINY,
    ];
    const first = await runCommand(sweepCommand, args);
    expect(first.stderr).toMatch(/sweep: 8 runs, 0 already done, 8 to run/);
    expect(first.code).toBe(0);
    const md = await readFile(docs, 'utf8');
    expect(md).toMatch(/8 of 8 planned runs have finished/);
    expect(md).toMatch(/### Main comparison: optimizer steps matched/);
    expect(md).toMatch(/\| starpo-ppo \| 2 \| 1\.0 \|/);
    expect(md).toMatch(/### Paper-style: steps not matched/);
    expect(md).toMatch(/\| think MI drop \|/);
    const figures = await readdir(join(dir, 'docs', 'figures'));
    expect(figures).toContain('minigrid-empty-5x5-rollout-successRate.svg');
    const svg = await readFile(
      join(dir, 'docs', 'figures', 'minigrid-empty-5x5-rollout-successRate.svg'),
      'utf8',
    );
    expect(svg).toMatch(/^<svg/);
    expect(svg).toMatch(/starpo-s \(2 seeds\)/);
    const summary = JSON.parse(
      await readFile(
        join(out, 'minigrid-empty-5x5', 'matched', 'starpo-s', 'seed-2', 'summary.json'),
        'utf8',
      ),
    );
    expect(summary).toMatchObject({ algo: 'starpo-s', seed: 2, completed: true });

    const again = await runCommand(sweepCommand, args);
    expect(again.stderr).toMatch(/8 already done, 0 to run/);
    const changed = await runCommand(sweepCommand, [...args, '--lr', '0.002']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/different config/);
  }, 300_000);

  it('draws a mean line and a band per series', () => {
    const rows = (k: number) => [0, 1, 2].map((i) => ({ iteration: i, 'rollout/successRate': 0.1 * i + k }));
    const svg = lineChartSvg('t', 'rollout/successRate', [
      { label: 'a', colour: '#f00', runs: [rows(0), rows(0.2)] },
    ]);
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    expect(svg.match(/<polygon/g)).toHaveLength(1);
    expect(svg).toMatch(/a \(2 seeds\)/);
  });
});
