import { describe, expect, it } from 'vitest';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import { nearestSample, runUpTo, stopPoints } from './replay.js';

const echo = (iteration: number, kind: string, signal: string): TrainerEvent =>
  ({
    type: 'echo',
    iteration,
    kind,
    signal,
    metric: 'm',
    message: `${signal}@${iteration}`,
    value: 0,
    reference: 0,
  }) as TrainerEvent;

const rows = Array.from({ length: 30 }, (_, i) => ({ iteration: i }));

describe('stopPoints', () => {
  it('takes the first warning (over earlier context events), the collapse and the end', () => {
    const events = [
      echo(5, 'context', 'rewardStdDrop'),
      echo(9, 'warning', 'malformedRise'),
      echo(9, 'warning', 'thinkMiDrop'),
      echo(12, 'warning', 'heldOutDrop'),
      echo(20, 'collapse', 'successCollapse'),
    ];
    expect(stopPoints({ rows, events })).toEqual({
      warning: {
        iteration: 9,
        signals: ['malformedRise', 'thinkMiDrop'],
        messages: ['malformedRise@9', 'thinkMiDrop@9'],
      },
      collapse: 20,
      end: 30,
    });
  });

  it('falls back to context events, and reports no warning or collapse when none fired', () => {
    expect(stopPoints({ rows, events: [echo(7, 'context', 'gradNormSpike')] }).warning?.iteration).toBe(7);
    expect(stopPoints({ rows: [], events: [] })).toEqual({ warning: null, collapse: null, end: 0 });
  });
});

describe('runUpTo', () => {
  it('keeps only iterations before the cut', () => {
    const sample = (iteration: number) => ({
      iteration,
      group: 0,
      seed: 0,
      instruction: '',
      reward: 0,
      success: false,
      turns: [],
    });
    const cut = runUpTo(
      {
        rows,
        events: [echo(3, 'warning', 'a'), echo(10, 'collapse', 'b')],
        samples: [sample(0), sample(4), sample(10)],
      },
      10,
    );
    expect(cut.rows.map((r) => r.iteration)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(cut.events).toHaveLength(1);
    expect(cut.samples.map((s) => s.iteration)).toEqual([0, 4]);
  });
});

describe('nearestSample', () => {
  it('finds the index of the sample closest to an iteration', () => {
    const s = [0, 5, 10, 15].map((iteration) => ({
      iteration,
      group: 0,
      seed: 0,
      instruction: '',
      reward: 0,
      success: false,
      turns: [],
    }));
    expect(nearestSample(s, 11)).toBe(2);
    expect(nearestSample(s, 0)).toBe(0);
    expect(nearestSample([], 3)).toBeNull();
  });
});
