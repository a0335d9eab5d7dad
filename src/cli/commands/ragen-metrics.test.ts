import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../testing.js';
import { ragenMetricsCommand, ragenRow } from './ragen-metrics.js';

describe('ragen-metrics', () => {
  it('renames the keys RAGEN logs too, RAGEN-2’s gradient split among them, and lists the rest', async () => {
    const row = {
      iteration: 10,
      'actor/gradNorm/task': 0.5,
      'actor/gradNorm/kl': 0.01,
      'actor/gradNorm/entropy': 0.02,
      'actor/gradNorm': 2,
      'actor/pgLoss': -0.1,
      'reasoning/mi': 0.3,
    };
    expect(ragenRow(row)).toEqual({
      row: {
        step: 10,
        'actor/grad_norm/task': 0.5,
        'actor/grad_norm/kl': 0.01,
        'actor/grad_norm/entropy': 0.02,
        'actor/grad_norm': 2,
        'actor/pg_loss': -0.1,
      },
      unnamed: ['reasoning/mi'],
    });
    const dir = await mkdtemp(join(tmpdir(), 'starpo-ragen-metrics-'));
    await writeFile(join(dir, 'metrics.jsonl'), `${JSON.stringify(row)}\n`);
    const r = await runCommand(ragenMetricsCommand, [dir]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ step: 10, 'actor/grad_norm/task': 0.5 });
    expect(r.stderr).toContain('no RAGEN name for reasoning/mi');
    const missing = await runCommand(ragenMetricsCommand, [join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope/);
  });
});
