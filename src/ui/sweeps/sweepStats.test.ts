import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.js';
import { inferAxes, makeBundle, parseBundle } from '../../core/files/sweepBundle.js';
import { PRESETS } from '../../core/presets.js';
import { parseAxis, parseSeeds, planSweep, type SweepSetup } from '../../core/sweepPlan.js';
import { finalByValue, heatmap, resultRows, type SweepRun, sortRows } from './sweepStats.js';

const base = defaultConfig();
/** The page's start: the echo-trap preset over a DoorKey-like base (context 256). */
const setup: SweepSetup = {
  preset: 'echo-trap',
  edits: {},
  base: { label: 'the base model doorkey', settings: { contextLength: 256, historyTurns: 1 }, context: 256 },
};
const run = (
  lr: number,
  temperature: number,
  seed: number,
  trap: boolean,
  final: number,
  lead: number | null,
): SweepRun => ({
  path: `lr=${lr},temperature=${temperature}/starpo-ppo/seed-${seed}`,
  preset: `lr=${lr},temperature=${temperature}`,
  algo: 'starpo-ppo',
  seed,
  config: { ...base, lr, temperature, seed },
  summary: { echoTrap: trap, peakSuccess: 0.8, finalSuccess: final, firstWarningLead: lead },
});

describe('planSweep', () => {
  it('crosses two axes with seeds, validates, and names runs in the CLI layout', () => {
    const plan = planSweep(
      setup,
      [parseAxis('lr', '0.001, 0.01'), parseAxis('algorithm', 'starpo-grpo,starpo-s')],
      [1, 2],
    );
    expect(plan).toHaveLength(8);
    expect(plan[0]?.path).toBe('lr=0.001/starpo-grpo/seed-1');
    expect(plan[3]?.path).toBe('lr=0.001/starpo-s/seed-2');
    // The algorithm axis applies the algorithm's switches (StarPO-S: clip-higher, no KL).
    expect(plan[2]?.config.klCoef).toBe(0);
    expect(plan[0]?.config.advantage).toBe('grpo');
    expect(plan[7]?.config.lr).toBe(0.01);
    // Resolved as the setup is: the base model's episode settings, then the preset.
    expect(plan[0]?.config.contextLength).toBe(256);
    expect(plan[0]?.config.groups).toBe(PRESETS['echo-trap']?.overrides.groups);
  });

  it('names a cell the base model cannot run', () => {
    expect(() => planSweep(setup, [parseAxis('contextLength', '256, 512')], [1])).toThrow(
      /contextLength=512 seed 1: contextLength must be at most 256/,
    );
  });

  it('refuses bad values, naming the field', () => {
    expect(() => parseAxis('lr', '0.01, fast')).toThrow(/lr/);
    expect(() => parseAxis('lr', '0.01, 0.01')).toThrow(/repeated/);
    expect(() =>
      planSweep(
        setup,
        [parseAxis('groups', '1,2,3,4,5,6,7,8'), parseAxis('lr', '0.1,0.01,0.001')],
        [1, 2, 3],
      ),
    ).toThrow(/at most 64/);
    expect(parseSeeds('3')).toEqual([1, 2, 3]);
    expect(parseSeeds('4, 9')).toEqual([4, 9]);
    expect(() => parseSeeds('x')).toThrow();
  });
});

describe('sweep views', () => {
  const runs = [
    run(0.01, 1, 1, true, 0.1, 4),
    run(0.01, 1, 2, false, 0.7, null),
    run(0.001, 1, 1, false, 0.9, null),
    run(0.001, 0.5, 1, true, 0.0, 2),
  ];
  const axes = [
    { key: 'lr', values: ['0.001', '0.01'] },
    { key: 'temperature', values: ['0.5', '1'] },
  ];

  it('fills the heatmap: runs and echo traps per cell, empty cells kept', () => {
    const cells = heatmap(runs, axes);
    expect(cells.map((c) => [c.x, c.y, c.runs, c.echoTraps])).toEqual([
      ['0.001', '0.5', 1, 1],
      ['0.01', '0.5', 0, 0],
      ['0.001', '1', 1, 0],
      ['0.01', '1', 2, 1],
    ]);
    expect(cells[3]?.meanFinal).toBeCloseTo(0.4);
  });

  it('final success per value with its spread', () => {
    const pts = finalByValue(runs, axes[0]!);
    expect(pts[1]).toMatchObject({ value: '0.01', finals: [0.1, 0.7], min: 0.1, max: 0.7 });
    expect(pts[1]?.mean).toBeCloseTo(0.4);
  });

  it('sorts rows, lead times missing last', () => {
    const rows = resultRows(runs, axes);
    expect(sortRows(rows, 'final', -1).map((r) => r.final)).toEqual([0.9, 0.7, 0.1, 0]);
    expect(sortRows(rows, 'lead', 1).map((r) => r.lead)).toEqual([2, 4, null, null]);
    expect(sortRows(rows, 'lead', -1).map((r) => r.lead)).toEqual([4, 2, null, null]);
    expect(rows[0]?.cell).toBe('lr=0.01, temperature=1');
  });
});

describe('bundle', () => {
  it('round-trips through parseBundle with the CLI table and inferred axes', () => {
    const files = [run(0.01, 1, 1, true, 0.1, 4), run(0.01, 1, 2, false, 0.7, null)].map((r) => ({
      ...r,
      metrics: [{ iteration: 0, 'rollout/successRate': 0.5 }],
      events: [],
    }));
    const b = makeBundle('t', files);
    expect(b.table.table).toEqual([
      {
        preset: 'lr=0.01,temperature=1',
        algo: 'starpo-ppo',
        runs: 2,
        echoTraps: 1,
        meanPeak: 0.8,
        meanFinal: (0.1 + 0.7) / 2,
      },
    ]);
    const parsed = parseBundle(JSON.stringify(b));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.runs.map((r) => [r.preset, r.algo, r.seed])).toEqual([
      ['lr=0.01,temperature=1', 'starpo-ppo', 1],
      ['lr=0.01,temperature=1', 'starpo-ppo', 2],
    ]);
    expect(parsed.axes).toEqual(inferAxes(parsed.runs));
    const bad = JSON.parse(JSON.stringify(b));
    bad.runs[0].config.lr = 'fast';
    expect(parseBundle(JSON.stringify(bad))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/lr/),
    });
    expect(parseBundle('{')).toMatchObject({ ok: false });
  });
});
