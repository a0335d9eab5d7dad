// A CLI run directory's contents become a run file the playground's own parser accepts, with
// the detector's summary recomputed from the rows (here a run that peaks and collapses).
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.js';
import { cliRunToRunData, parseJsonl, summaryOfRows } from '../../core/files/cliRun.js';
import { parseFile, runToFile } from '../../core/files/runFile.js';
import { markerSignals } from '../explain/MarkerLinks.js';

const rows = Array.from({ length: 30 }, (_, i) => ({
  iteration: i,
  'rollout/successRate': i < 12 ? i / 12 : Math.max(0, 1 - (i - 12) / 4),
}));

describe('cliRunToRunData', () => {
  it('recomputes the summary and round-trips through the run-file parser', () => {
    const config = { ...defaultConfig(), iterations: 30 };
    // Judged with the run's own shape (its groups set the noise bound), as the import does.
    const s = summaryOfRows(rows, config);
    expect(s.echoTrap).toBe(true);
    expect(s.peakIteration).toBeGreaterThanOrEqual(11);
    const text = `${rows.map((r) => JSON.stringify(r)).join('\n')}\n\n`;
    const data = cliRunToRunData(
      { config, metrics: parseJsonl(text), events: [], summary: { backend: 'wasm', base: 'random' } },
      'recorded run of test',
      1,
    );
    expect(data.meta.status).toBe('finished');
    expect(data.meta.base.untrained).toBe(true);
    const parsed = parseFile(runToFile(data));
    if (!parsed.ok || parsed.kind !== 'run') throw new Error('refused');
    expect(parsed.run.rows).toEqual(rows);
    expect(parsed.run.meta.summary).toEqual(s);
    expect(parsed.run.meta.name).toBe('recorded run of test');
  });

  it('marks a run cut short as stopped', () => {
    const data = cliRunToRunData(
      { config: { ...defaultConfig(), iterations: 100 }, metrics: rows, events: [] },
      'x',
      1,
    );
    expect(data.meta.status).toBe('stopped');
    expect(data.meta.iteration).toBe(30);
  });
});

describe('markerSignals', () => {
  it('lists each signal once, by first firing', () => {
    const m = [
      { x: 9, kind: 'collapse', signal: 'successCollapse' },
      { x: 4, kind: 'warning', signal: 'malformedRise' },
      { x: 6, kind: 'warning', signal: 'malformedRise' },
      { x: 5, kind: 'live' },
    ];
    expect(markerSignals(m).map((s) => [s.signal, s.x])).toEqual([
      ['malformedRise', 4],
      ['successCollapse', 9],
    ]);
  });
});
