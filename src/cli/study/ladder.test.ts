import { describe, expect, it } from 'vitest';
import type { RunVerdict } from '../../core/metrics/verdict.js';
import { pickRung, type Rung, roseAndHeld } from './ladder.js';

const v = (over: Partial<RunVerdict>): RunVerdict => ({
  verdict: 'held',
  iterations: 200,
  minIterations: 40,
  z: 3,
  start: 0.2,
  peak: 0.8,
  last: 0.6,
  riseZ: 10,
  fallZ: 2,
  ...over,
});

describe('the ladder’s pick rule (docs/echo-trap-round13.md, stage 1)', () => {
  it('a run rose and held: judged held, rose beyond z, kept at least half its rise', () => {
    expect(roseAndHeld(v({}))).toBe(true);
    expect(roseAndHeld(v({ last: 0.5 }))).toBe(true); // exactly halfway
    expect(roseAndHeld(v({ last: 0.49 }))).toBe(false);
    expect(roseAndHeld(v({ riseZ: 2.9 }))).toBe(false);
    expect(roseAndHeld(v({ verdict: 'trapped' }))).toBe(false);
  });

  const rung = (name: string, lr: number, held: number): Rung => ({
    name,
    lr,
    runs: [0, 1, 2, 3].map((i) => ({ seed: i + 1, verdict: v({}), roseAndHeld: i < held })),
  });

  it('takes the largest rung where all held, else all but one, else the lowest', () => {
    expect(pickRung([rung('a', 1e-4, 4), rung('b', 2e-4, 4), rung('c', 3e-4, 3)], 4)).toEqual({
      rung: 'b',
      lr: 2e-4,
      by: 'all held',
    });
    expect(pickRung([rung('a', 1e-4, 3), rung('b', 2e-4, 2), rung('c', 3e-4, 3)], 4)).toEqual({
      rung: 'c',
      lr: 3e-4,
      by: 'all but one held',
    });
    expect(pickRung([rung('a', 1e-4, 2), rung('c', 3e-4, 1)], 4).rung).toBe('a');
  });
});
