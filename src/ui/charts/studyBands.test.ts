// The study's bands on the charts: which chart gets which band, how bands join the chart rows
// and widen the y range, and how a missing, HTML or malformed file is told apart from a good one.
import { describe, expect, it } from 'vitest';
import { STUDY_BANDS_FORMAT, type StudyBands } from '../../core/metrics/studyBands.js';
import { bandsFromResponse } from '../store/studyBandsSlice.js';
import { bandLegendText, bandsForChart, withBands } from './studyBandData.js';

const CONFIG = { groups: 8, groupSize: 8, lr: 0.005, stepsPerIteration: 4, iterations: 80 };
const success = { iteration: [0, 2], mean: [0.2, 0.4], lo: [0.1, 0.3], hi: [0.3, 0.9] };

const FILE: StudyBands = {
  format: STUDY_BANDS_FORMAT,
  version: 1,
  study: 'echo-trap',
  envs: {
    'minigrid/DoorKey-5x5': {
      'starpo-ppo': {
        seeds: 8,
        variant: 'matched',
        config: CONFIG,
        metrics: { 'rollout/successRate': success },
      },
      'starpo-s': {
        seeds: 6,
        variant: 'matched',
        config: CONFIG,
        metrics: { 'rollout/successRate': success, 'actor/entropy': success },
      },
    },
  },
};

describe('bandsForChart', () => {
  it('gives a chart one band per family for its first measured metric, with seeds and config', () => {
    const bands = bandsForChart(FILE, 'minigrid/DoorKey-5x5', ['rollout/successRate', 'eval/successRate']);
    expect(bands.map((b) => [b.name, b.metric])).toEqual([
      ['study StarPO', 'rollout/successRate'],
      ['study StarPO-S', 'rollout/successRate'],
    ]);
    expect(bands[0]?.text).toBe(
      'study: 8 seeds, 8 × 8 rollouts, lr 0.005, 4 steps/iter; steps matched; band: min–max over seeds',
    );
    expect(bands[1]?.text).toMatch(/^study: 6 seeds,/);
    expect(bandLegendText(bands)).toBe('study: 8/6 seeds');
    expect(bandLegendText(bands.slice(0, 1))).toBe('study: 8 seeds');
    // Only StarPO-S measured entropy here.
    expect(bandsForChart(FILE, 'minigrid/DoorKey-5x5', ['actor/entropy']).map((b) => b.name)).toEqual([
      'study StarPO-S',
    ]);
  });

  it('gives nothing for another env, an unmeasured metric or no file', () => {
    expect(bandsForChart(FILE, 'webshop/lite', ['rollout/successRate'])).toEqual([]);
    expect(bandsForChart(FILE, 'minigrid/DoorKey-5x5', ['actor/gradNorm'])).toEqual([]);
    expect(bandsForChart(null, 'minigrid/DoorKey-5x5', ['rollout/successRate'])).toEqual([]);
  });
});

describe('withBands', () => {
  it('joins bands by iteration, adds rows the run lacks within its span and widens the range', () => {
    const [band] = bandsForChart(FILE, 'minigrid/DoorKey-5x5', ['rollout/successRate']);
    const chart = {
      data: [
        { iteration: 0, r0k0s: 0.5 },
        { iteration: 1, r0k0s: 0.6 },
        { iteration: 3, r0k0s: 0.55 },
      ],
      range: [0.5, 0.6] as [number, number],
    };
    const out = withBands(chart, band ? [band] : []);
    expect(out.data).toEqual([
      { iteration: 0, r0k0s: 0.5, study0range: [0.1, 0.3], study0mean: 0.2 },
      { iteration: 1, r0k0s: 0.6 },
      { iteration: 2, study0range: [0.3, 0.9], study0mean: 0.4 },
      { iteration: 3, r0k0s: 0.55 },
    ]);
    expect(out.range).toEqual([0.1, 0.9]);
    expect(chart.data[0]).toEqual({ iteration: 0, r0k0s: 0.5 }); // input untouched
    expect(withBands({ data: [], range: null }, band ? [band] : []).range).toEqual([0.1, 0.9]);
  });

  it('follows the run: a band longer than the run is cut to the run’s iterations', () => {
    const [band] = bandsForChart(FILE, 'minigrid/DoorKey-5x5', ['rollout/successRate']);
    const chart = {
      data: [
        { iteration: 0, r0k0s: 0.5 },
        { iteration: 1, r0k0s: 0.6 },
      ],
      range: [0.5, 0.6] as [number, number],
    };
    const out = withBands(chart, band ? [band] : []);
    expect(out.data.map((r) => r.iteration)).toEqual([0, 1]);
    expect(out.range).toEqual([0.1, 0.6]); // only the band point drawn (iteration 0) widens it
  });

  it('leaves out band points a log axis cannot draw', () => {
    const b = bandsForChart(FILE, 'minigrid/DoorKey-5x5', ['rollout/successRate'])[0];
    if (!b) throw new Error('no band');
    const zero = { ...b, band: { ...b.band, lo: [0, 0.3] } };
    expect(withBands({ data: [], range: null }, [zero], true).data.map((r) => r.iteration)).toEqual([2]);
  });
});

describe('bandsFromResponse', () => {
  it('tells a good file from a missing, HTML or malformed one', () => {
    expect(bandsFromResponse(true, 200, JSON.stringify(FILE))).toMatchObject({ status: 'ok', note: '' });
    expect(bandsFromResponse(false, 404, 'Not found')).toMatchObject({
      status: 'absent',
      file: null,
      note: 'No study reference yet (study/echo-trap.json: HTTP 404).',
    });
    expect(bandsFromResponse(true, 200, '<!doctype html><html>')).toMatchObject({ status: 'absent' });
    expect(bandsFromResponse(true, 200, '{"format":')).toMatchObject({ status: 'invalid', file: null });
    const bad = {
      ...FILE,
      envs: { x: { 'starpo-ppo': { ...FILE.envs['minigrid/DoorKey-5x5']?.['starpo-ppo'], seeds: 0 } } },
    };
    expect(bandsFromResponse(true, 200, JSON.stringify(bad)).note).toMatch(
      /^Study reference refused: study bands: envs\.x\.starpo-ppo\.seeds:/,
    );
  });
});
