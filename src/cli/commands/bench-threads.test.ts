// `bench-threads` refuses unusable flags and a missing results file before it builds anything
// (the measurement itself needs Chromium and runs in the bench, not here).
import { describe, expect, it } from 'vitest';
import { usageErrorOf } from '../testing.js';
import { benchThreadsCommand } from './bench-threads.js';

describe('bench-threads', () => {
  it('names unusable flags and a missing results file', async () => {
    expect(await usageErrorOf(benchThreadsCommand, ['--rounds', '0'])).toContain('--rounds');
    expect(await usageErrorOf(benchThreadsCommand, ['--what', '1'])).toContain('unknown flag --what');
    expect(await usageErrorOf(benchThreadsCommand, ['--out', '/nonexistent/results.json'])).toContain(
      'updates an existing results file',
    );
  });
});
