// Which event the echo-trap banner shows: only what the detector fired (nothing of its own, so
// no verdict before the detector has its baseline — e.g. a Bandit run peaking at iteration 0).
import { describe, expect, it } from 'vitest';
import { DEFAULT_DETECTOR, EchoTrapDetector } from '../../core/metrics/detector.js';
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
  it('skips warnings whose false-alarm rate is not low enough, never a collapse', () => {
    const onlyCollapse = () => false;
    expect(bannerEvent([echo(2, 'warning'), echo(5, 'warning')], onlyCollapse)).toBeNull();
    expect(bannerEvent([echo(3, 'collapse'), echo(8, 'warning')], onlyCollapse)?.iteration).toBe(3);
    const w = (iteration: number, signal: string) =>
      ({ ...echo(iteration, 'warning'), signal }) as TrainerEvent;
    expect(
      bannerEvent([w(2, 'malformedRise'), w(5, 'actionMiDrop')], (s) => s === 'malformedRise')?.iteration,
    ).toBe(2);
  });

  it('clears a collapse once the run recovered, keeping later warnings', () => {
    expect(bannerEvent([echo(3, 'collapse'), echo(9, 'recovery')])).toBeNull();
    expect(bannerEvent([echo(3, 'collapse'), echo(9, 'recovery'), echo(12, 'warning')])?.iteration).toBe(12);
  });

  it('shows nothing of its own: no verdict in the detector’s warm-up, then exactly its events', () => {
    const d = new EchoTrapDetector();
    const events: TrainerEvent[] = [];
    const feed = (iteration: number, success: number) => {
      for (const e of d.update({ iteration, 'rollout/successRate': success }))
        events.push({ type: 'echo', ...e } as TrainerEvent);
    };
    // A Bandit-like start: the peak at iteration 0, then a fall, all inside the warm-up.
    for (const [i, v] of [0.5, 0.05, 0, 0, 0].slice(0, DEFAULT_DETECTOR.warmup).entries()) feed(i, v);
    expect(bannerEvent(events)).toBeNull();
    // A long rise and a collapse: whatever the detector fires is what the banner shows.
    for (let i = 0; i < 40; i++) feed(10 + i, i < 15 ? i / 15 : Math.max(0, 1 - (i - 15) / 5));
    const fired = events.filter((e) => e.type === 'echo' && (e.kind === 'collapse' || e.kind === 'warning'));
    expect(fired.length).toBeGreaterThan(0);
    expect(fired).toContain(bannerEvent(events));
  });
});
