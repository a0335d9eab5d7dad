// The report batcher: rows and events leave together at most once per interval, only the
// newest sample goes with them, and a forced flush sends at once.
import { describe, expect, it } from 'vitest';
import type { SampledTrajectory } from '../core/rl/trainer.js';
import { type ReportBatch, ReportBatcher } from './reportBatcher.js';

const sample = (iteration: number) => ({ iteration }) as unknown as SampledTrajectory;

describe('ReportBatcher', () => {
  it('sends at most once per interval however many iterations finish', () => {
    let t = 0;
    const sent: ReportBatch[] = [];
    const b = new ReportBatcher(
      (x) => sent.push(x),
      250,
      () => t,
    );
    // 100 iterations of 10 ms each = 1 s of training.
    for (let i = 0; i < 100; i++) {
      t = i * 10;
      b.addRow({ iteration: i });
      b.addSample(sample(i));
      b.maybeFlush();
    }
    expect(sent.length).toBe(4); // at t = 0, 250, 500, 750
    b.flush();
    expect(sent.flatMap((s) => s.rows.map((r) => r.iteration))).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
    expect(sent.every((s) => s.samples.length === 1)).toBe(true);
    expect(sent[1]?.samples[0]?.iteration).toBe(25);
  });

  it('sends nothing when empty and everything when forced', () => {
    const sent: ReportBatch[] = [];
    const b = new ReportBatcher(
      (x) => sent.push(x),
      1000,
      () => 0,
    );
    expect(b.flush()).toBe(false);
    expect(b.empty).toBe(true);
    b.addEvent({ type: 'live', iteration: 3, changes: { lr: 0.01 } });
    expect(b.empty).toBe(false);
    expect(b.flush()).toBe(true);
    expect(b.empty).toBe(true);
    expect(sent[0]?.events).toHaveLength(1);
    expect(sent[0]?.rows).toHaveLength(0);
  });
});
