// Which event the echo-trap banner shows.
import { describe, expect, it } from 'vitest';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import { bannerEvent } from './EchoBanner.js';

const echo = (iteration: number, kind: 'warning' | 'collapse' | 'recovery' | 'context') =>
  ({
    type: 'echo',
    iteration,
    kind,
    signal: kind,
    metric: 'm',
    message: `${kind} ${iteration}`,
    value: 0,
    reference: 0,
  }) as TrainerEvent;

describe('bannerEvent', () => {
  it('prefers the latest collapse over warnings and ignores context', () => {
    expect(bannerEvent([echo(1, 'context')])).toBeNull();
    expect(bannerEvent([echo(2, 'warning'), echo(5, 'warning')])?.iteration).toBe(5);
    expect(bannerEvent([echo(3, 'collapse'), echo(8, 'warning')])?.iteration).toBe(3);
    expect(bannerEvent([{ type: 'live', iteration: 1, changes: {} }])).toBeNull();
  });
  it('clears a collapse once the run recovered, keeping later warnings', () => {
    expect(bannerEvent([echo(3, 'collapse'), echo(9, 'recovery')])).toBeNull();
    expect(bannerEvent([echo(3, 'collapse'), echo(9, 'recovery'), echo(12, 'warning')])?.iteration).toBe(12);
  });
});
