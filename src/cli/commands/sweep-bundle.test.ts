// The real `sweep` command's output, packed by `sweep-bundle`, parses with the playground's
// bundle parser: same runs, same table as table.json, algorithms as the inferred axis.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../core/files/sweepBundle.js';
import { runCommand } from '../testing.js';
import { sweepCommand } from './sweep.js';
import { sweepBundleCommand } from './sweep-bundle.js';

// biome-ignore format: flag pairs
const TINY = ['--env', 'minigrid/Empty-5x5', '--base', 'random', '--backend', 'wasm', '--iters', '2', '--groups', '2',
  '--group-size', '2', '--max-turns', '1', '--max-tokens', '6', '--context', '128', '--eval-every', '0', '--mi-every', '0'];

describe('sweep-bundle', () => {
  it('packs a CLI sweep directory into a bundle the browser imports', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-bundle-'));
    const swept = await runCommand(sweepCommand, [
      '--out',
      dir,
      '--algos',
      'starpo-grpo,dpo-online',
      '--seeds',
      '1',
      ...TINY,
    ]);
    expect(swept.code).toBe(0);
    const out = join(dir, 'bundle.json');
    const r = await runCommand(sweepBundleCommand, ['--dir', dir, '--out', out, '--name', 'tiny']);
    expect(r.code).toBe(0);
    const text = await readFile(out, 'utf8');
    const table = JSON.parse(await readFile(join(dir, 'table.json'), 'utf8'));
    expect(JSON.parse(text).table.table).toEqual(table.table);
    const parsed = parseBundle(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.name).toBe('tiny');
    expect(parsed.runs.map((x) => x.path)).toEqual(['custom/starpo-grpo/seed-1', 'custom/dpo-online/seed-1']);
    expect(parsed.runs.every((x) => x.metrics.length === 2)).toBe(true);
    expect(parsed.runs[1]?.config.algorithm).toBe('dpo-online');
    expect(parsed.axes).toEqual([{ key: 'algorithm', values: ['starpo-grpo', 'dpo-online'] }]);
    await rm(join(dir, 'custom', 'dpo-online'), { recursive: true });
    const missing = await runCommand(sweepBundleCommand, ['--dir', dir, '--out', out]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/dpo-online\/seed-1/);
  }, 120_000);

  it('needs --dir and --out', async () => {
    expect((await runCommand(sweepBundleCommand, ['--out', 'x.json'])).stderr).toMatch(/--dir/);
  });
});
