// The throughput benchmark's bookkeeping, with an injected clock so the figures are exact.
import { describe, expect, it } from 'vitest';
import { benchMinigrid } from './bench.js';

describe('benchMinigrid', () => {
  it('reports steps per second from the clock, episodes, and the expert success rate', () => {
    let t = 0;
    const now = () => {
      t += 250; // each call advances 250 ms: the timed loop spans exactly one interval
      return t;
    };
    const res = benchMinigrid({ ids: ['minigrid/Empty-5x5'], steps: 1000, expertEpisodes: 4, now });
    expect(res.rows).toHaveLength(1);
    const row = res.rows[0];
    expect(row).toMatchObject({
      id: 'minigrid/Empty-5x5',
      family: 'minigrid/Empty',
      steps: 1000,
      seconds: 0.25,
      stepsPerSec: 4000,
      expertEpisodes: 4,
      expertSuccessRate: 1,
      expertMeanSteps: 5,
    });
    // Random play on a 5×5 room: episodes end at the goal or after 100 steps.
    expect(row?.episodes).toBeGreaterThanOrEqual(11);
    expect(row?.meanObsChars).toBeGreaterThan(40);
    expect(JSON.parse(JSON.stringify(res))).toEqual(res);
  });

  it('refuses unknown ids', () => {
    expect(() => benchMinigrid({ ids: ['minigrid/Nope'], steps: 10 })).toThrow('unknown ids minigrid/Nope');
  });
});
