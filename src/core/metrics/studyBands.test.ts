import { describe, expect, it } from 'vitest';
import type { MetricRow } from './keys.js';
import {
  algoBands,
  bandConfigText,
  bandFamilyOf,
  bandOf,
  parseStudyBands,
  STUDY_BANDS_FORMAT,
  thinBand,
} from './studyBands.js';

const CONFIG = { groups: 8, groupSize: 4, lr: 0.005, stepsPerIteration: 4, iterations: 3 };

const seedA: MetricRow[] = [
  { iteration: 0, 'rollout/successRate': 0.1, 'actor/entropy': 2 },
  { iteration: 1, 'rollout/successRate': 0.5, 'eval/successRate': 0.25 },
  { iteration: 2, 'rollout/successRate': 0.2 },
];
const seedB: MetricRow[] = [
  { iteration: 0, 'rollout/successRate': 0.3, 'actor/entropy': 3 },
  { iteration: 1, 'rollout/successRate': 0.1, 'eval/successRate': 0.75 },
  { iteration: 2, 'rollout/successRate': Number.NaN },
];

function fileOf(metrics: Record<string, unknown>): unknown {
  return {
    format: STUDY_BANDS_FORMAT,
    version: 1,
    study: 'echo-trap',
    envs: {
      'minigrid/Empty-5x5': { 'starpo-ppo': { seeds: 2, variant: 'matched', config: CONFIG, metrics } },
    },
  };
}

describe('study bands', () => {
  it('takes mean, min and max over seeds at each iteration, skipping non-finite values', () => {
    const b = bandOf([seedA, seedB], 'rollout/successRate');
    expect(b.iteration).toEqual([0, 1, 2]);
    expect(b.mean[0]).toBeCloseTo(0.2, 12);
    expect(b.mean[1]).toBeCloseTo(0.3, 12);
    expect(b.mean[2]).toBeCloseTo(0.2, 12); // only seed A measured it
    expect(b.lo).toEqual([0.1, 0.1, 0.2]);
    expect(b.hi).toEqual([0.3, 0.5, 0.2]);
    const ev = bandOf([seedA, seedB], 'eval/successRate');
    expect(ev).toEqual({ iteration: [1], mean: [0.5], lo: [0.25], hi: [0.75] });
  });

  it('thins a long band to the limit, keeping both endpoints and the envelope', () => {
    const n = 1000;
    const iteration = Array.from({ length: n }, (_, i) => i);
    const mean = iteration.map((i) => Math.sin(i / 50));
    const spike = 437;
    const b = {
      iteration,
      mean,
      lo: mean.map((m) => m - 0.1),
      hi: mean.map((m, i) => (i === spike ? 5 : m + 0.1)),
    };
    const t = thinBand(b, 200);
    expect(t.iteration).toHaveLength(200);
    expect(t.iteration[0]).toBe(0);
    expect(t.iteration[199]).toBe(n - 1);
    expect(t.mean[0]).toBe(mean[0]);
    expect(t.mean[199]).toBe(mean[n - 1]);
    for (let i = 1; i < t.iteration.length; i++)
      expect(t.iteration[i] as number).toBeGreaterThan(t.iteration[i - 1] as number);
    expect(Math.max(...t.hi)).toBe(5); // the spike survives in the envelope
    expect(Math.min(...t.lo)).toBeCloseTo(-1.1, 2);
    expect(thinBand(b, 2000)).toBe(b);
  });

  it('builds an entry that its own schema accepts, with the seed count and config', () => {
    const entry = algoBands([seedA, seedB], CONFIG, 'matched');
    expect(entry.seeds).toBe(2);
    expect(Object.keys(entry.metrics).sort()).toEqual([
      'actor/entropy',
      'eval/successRate',
      'rollout/successRate',
    ]);
    expect(entry.metrics['actor/entropy']).toEqual({ iteration: [0], mean: [2.5], lo: [2], hi: [3] });
    const file = parseStudyBands(fileOf(entry.metrics));
    expect(bandConfigText(file.envs['minigrid/Empty-5x5']!['starpo-ppo']!)).toBe(
      '2 seeds, 8 × 4 rollouts, lr 0.005, 4 steps/iter',
    );
  });

  it('refuses malformed files naming the field', () => {
    const ok = { iteration: [0, 1], mean: [0.2, 0.3], lo: [0.1, 0.2], hi: [0.3, 0.4] };
    expect(() => parseStudyBands(fileOf({ 'rollout/successRate': ok }))).not.toThrow();
    expect(() => parseStudyBands({ ...(fileOf({}) as object), format: 'starpo-run' })).toThrow(
      /study bands: format:/,
    );
    expect(() => parseStudyBands(fileOf({ 'rollout/successRate': { ...ok, lo: [0.1] } }))).toThrow(
      /rollout\/successRate\.lo: has 1 values, iteration has 2/,
    );
    expect(() => parseStudyBands(fileOf({ 'rollout/successRate': { ...ok, iteration: [1, 1] } }))).toThrow(
      /iterations must increase/,
    );
    expect(() => parseStudyBands(fileOf({ 'rollout/successRate': { ...ok, hi: [0.1, 0.4] } }))).toThrow(
      /lo ≤ mean ≤ hi/,
    );
    const tooLong = Array.from({ length: 201 }, (_, i) => i);
    expect(() =>
      parseStudyBands(
        fileOf({ 'rollout/successRate': { iteration: tooLong, mean: tooLong, lo: tooLong, hi: tooLong } }),
      ),
    ).toThrow(/iteration/);
    expect(() => parseStudyBands('not json object')).toThrow(/study bands: \(top level\)/);
  });

  it('maps algorithms to the family band they are compared with', () => {
    expect(bandFamilyOf('starpo-s').label).toBe('StarPO-S');
    expect(bandFamilyOf('starpo-s+').algo).toBe('starpo-s');
    for (const a of ['starpo-ppo', 'starpo-grpo', 'ppo-turn', 'dpo-online'])
      expect(bandFamilyOf(a).algo).toBe('starpo-ppo');
  });
});
