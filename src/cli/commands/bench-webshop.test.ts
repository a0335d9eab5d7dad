// bench-webshop: a small run prints the JSON report with both shoppers and the upstream figures.
import { describe, expect, it } from 'vitest';
import { runCommand, usageErrorOf } from '../testing.js';
import { benchWebshopCommand } from './bench-webshop.js';

describe('bench-webshop', () => {
  it('reports throughput and both shoppers beside the upstream reference', async () => {
    const { code, stdout } = await runCommand(benchWebshopCommand, ['--episodes', '60']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.catalogue).toMatchObject({ seed: 0, products: 1000 });
    expect(report.throughput.stepsPerSec).toBeGreaterThan(0);
    expect(report.throughput.searches).toBeGreaterThan(0);
    const { ruleBaseline, scriptedShopper } = report.testSplit;
    expect(scriptedShopper.score).toBeGreaterThan(ruleBaseline.score);
    expect(report.upstreamReference.rule).toEqual({ score: 45.6, successRate: 0.096 });
    expect(report.upstreamReference.note).toContain('different catalogue');
  });

  it('refuses bad options with a clear message', async () => {
    expect(await usageErrorOf(benchWebshopCommand, ['--episodes', '0'])).toMatch(
      '--episodes must be an integer',
    );
    expect(await usageErrorOf(benchWebshopCommand, ['--goal-mode', 'x'])).toMatch('--goal-mode');
    expect(await usageErrorOf(benchWebshopCommand, ['--fast', '1'])).toMatch('unknown flag --fast');
  });
});
