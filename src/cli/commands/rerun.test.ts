// `results rerun`: the row comparison by hand, and a real rerun of a stored run's first
// iteration (round 11's confirmation run of seed 303, the echo-trap preset's default), which
// must give the stored row again in every key but the machine's.
import { describe, expect, it } from 'vitest';
import type { MetricRow } from '../../core/metrics/keys.js';
import { addedKeys, rerunRows, rowDifference } from './rerun.js';

const row = (r: Record<string, number>) => r as unknown as MetricRow;

describe('the rerun’s row comparison', () => {
  it('names the stored keys whose values differ or are missing, never the machine’s', () => {
    const stored = row({ iteration: 3, 'reward/mean': 0.5, 'time/iterMs': 900, 'memory/bytes': 7, 'x/y': 1 });
    const fresh = row({
      iteration: 3,
      'reward/mean': 0.25,
      'time/iterMs': 400,
      'memory/bytes': 9,
      'new/key': 2,
    });
    expect(rowDifference(stored, fresh)).toEqual(['reward/mean', 'x/y']);
    expect(addedKeys(stored, fresh)).toEqual(['new/key']);
    expect(rowDifference(stored, stored)).toEqual([]);
  });
});

describe('results rerun', () => {
  it('gives the stored first row of round 11’s seed 303 again', async () => {
    const lines: string[] = [];
    const t = await rerunRows(
      'results/echo-trap/round11/confirm-vanilla/custom/starpo-grpo/seed-303',
      1,
      (l) => lines.push(l),
    );
    expect(t).toMatchObject({ rows: 1, differ: [] });
    expect(lines[0]).toMatch(/iteration 0 same$/);
  });
});
