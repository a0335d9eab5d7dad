// ETA text and the per-iteration time it is based on.
import { describe, expect, it } from 'vitest';
import { etaText, msPerIteration } from './eta.js';

describe('eta', () => {
  it('averages rollout + update time over the last rows', () => {
    const rows = [
      { iteration: 0, 'time/rolloutMs': 1000, 'time/updateMs': 1000 },
      { iteration: 1, 'time/rolloutMs': 100, 'time/updateMs': 100 },
      { iteration: 2, 'time/rolloutMs': 300, 'time/updateMs': 100 },
    ];
    expect(msPerIteration(rows, 2)).toBe(300);
    // The first row is the warm-up: left out, so no estimate before the second iteration.
    expect(msPerIteration(rows)).toBe(300);
    expect(msPerIteration(rows.slice(0, 1))).toBeNull();
    expect(msPerIteration([])).toBeNull();
  });
  it('formats seconds, minutes and hours', () => {
    expect(etaText(500, 10)).toBe('500 ms/iteration · ETA 5 s');
    expect(etaText(1000, 125)).toBe('1000 ms/iteration · ETA 2 min 05 s');
    expect(etaText(1000, 3 * 3600 + 60)).toBe('1000 ms/iteration · ETA 3 h 01 min');
    expect(etaText(1000, 0)).toBe('');
  });
});
