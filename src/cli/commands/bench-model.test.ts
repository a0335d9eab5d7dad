import { describe, expect, it } from 'vitest';
import { runCommand, usageErrorOf } from '../testing.js';
import { benchModelCommand } from './bench-model.js';

describe('bench-model', () => {
  it('writes one JSON document with sampling, scoring and gradient timings', async () => {
    const { code, stdout } = await runCommand(benchModelCommand, [
      '--quick',
      '--backends',
      'cpu',
      '--rows',
      '2',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ backends: ['cpu'], sizes: ['nano'], rows: 2 });
    const [row] = report.results;
    expect(row).toMatchObject({ backend: 'cpu', size: 'nano' });
    for (const key of ['sampleCached', 'sampleNoCache', 'score'])
      expect(row[key].tokensPerSec).toBeGreaterThan(0);
    // A gradient step takes time: a zero would mean nothing was timed.
    expect(row.gradStep.ms).toBeGreaterThan(0);
  });

  it('rejects unknown backends and sizes', async () => {
    expect(await usageErrorOf(benchModelCommand, ['--backends', 'webgl'])).toMatch(/not cpu or wasm/);
    expect(await usageErrorOf(benchModelCommand, ['--sizes', 'huge'])).toMatch(/unknown size "huge"/);
  });
});
