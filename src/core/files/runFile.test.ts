// Run files: export → import gives the same series, events, samples and checkpoint bytes;
// corrupted, foreign and subtly wrong files are refused with a message naming the problem.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import {
  checkpointToFile,
  fromBase64,
  importedName,
  parseFile,
  type RunData,
  runToFile,
  toBase64,
} from './runFile.js';

const run: RunData = {
  meta: {
    id: 'r1',
    name: 'grpo, lr 1e-2',
    createdAt: 1000,
    updatedAt: 2000,
    status: 'finished',
    config: { ...defaultConfig(), seed: 42 },
    iteration: 3,
    summary: null,
    base: { id: 'fresh', label: 'untrained nano', untrained: true },
    backend: 'wasm',
    hasCheckpoint: true,
  },
  rows: [
    { iteration: 0, 'rollout/successRate': 0.25, 'actor/gradNorm': 1.5 },
    { iteration: 1, 'rollout/successRate': 0.5, 'actor/entropy': Number.NaN },
    { iteration: 2, 'rollout/successRate': 0 },
  ],
  events: [
    { type: 'live', iteration: 1, changes: { lr: 0.01 } },
    {
      type: 'error',
      iteration: 1,
      message: 'NaN in the loss',
      consecutive: 3,
      pause: true,
      suggestion: 'lower lr',
    },
    {
      type: 'echo',
      iteration: 2,
      kind: 'collapse',
      signal: 'collapse',
      metric: 'rollout/successRate',
      message: 'success fell by half',
      value: 0.1,
      reference: 0.5,
    },
  ],
  samples: [
    {
      iteration: 2,
      group: 0,
      seed: 17,
      instruction: 'get to the green goal square',
      reward: -0.1,
      success: false,
      turns: [
        {
          observation: 'You see a wall 2 steps forward',
          responseText: '<think> go </think> <answer> go forward </answer>',
          tokens: ['go', '</think>'],
          logps: [-0.5, -2],
          actions: ['go forward'],
          valid: [true],
          reward: 0,
          penalised: false,
        },
      ],
    },
  ],
  checkpoint: {
    manifest: { format: 'starpo-checkpoint', version: 1 },
    blob: new Uint8Array([0, 0, 128, 63]),
    iteration: 3,
  },
};

describe('run files', () => {
  it('round-trip: same series, events, samples and checkpoint bytes', () => {
    const parsed = parseFile(runToFile(run));
    if (!parsed.ok || parsed.kind !== 'run') throw new Error(JSON.stringify(parsed));
    // NaN is written as null and dropped on the way back.
    expect(parsed.run.rows).toEqual([run.rows[0], { iteration: 1, 'rollout/successRate': 0.5 }, run.rows[2]]);
    expect(parsed.run.events).toEqual(run.events);
    expect(parsed.run.samples).toEqual(run.samples);
    expect([...(parsed.run.checkpoint?.blob ?? [])]).toEqual([0, 0, 128, 63]);
    expect(parsed.run.meta.config.seed).toBe(42);
    expect(parsed.run.meta.name).toBe('grpo, lr 1e-2');
  });

  it('lists a run exported while running as interrupted', () => {
    const parsed = parseFile(runToFile({ ...run, meta: { ...run.meta, status: 'running' } }));
    expect(parsed.ok && parsed.kind === 'run' && parsed.run.meta.status).toBe('interrupted');
  });

  it('refuses truncated, foreign and wrong files with a reason', () => {
    const text = runToFile(run);
    const cut = parseFile(text.slice(0, text.length / 2));
    expect(cut).toMatchObject({ ok: false });
    expect(!cut.ok && cut.message).toMatch(/not a JSON file/);
    const foreign = parseFile('{"format":"tensorboard"}');
    expect(!foreign.ok && foreign.message).toMatch(/format is "tensorboard"/);
    const badRow = JSON.parse(text);
    badRow.rows[1]['rollout/successRate'] = 'high';
    const r1 = parseFile(JSON.stringify(badRow));
    expect(!r1.ok && r1.message).toMatch(/rows\.1/);
    const badConfig = JSON.parse(text);
    badConfig.meta.config.lr = 5;
    const r2 = parseFile(JSON.stringify(badConfig));
    expect(!r2.ok && r2.message).toMatch(/meta\.config: lr/);
    const badBlob = JSON.parse(text);
    badBlob.checkpoint.blobBase64 = 'AAA';
    expect(parseFile(JSON.stringify(badBlob)).ok).toBe(false);
  });

  it('reads checkpoint files', () => {
    const cp = run.checkpoint as NonNullable<RunData['checkpoint']>;
    const parsed = parseFile(checkpointToFile('my agent', cp));
    expect(parsed.ok && parsed.kind === 'checkpoint' && parsed.name).toBe('my agent');
    const bad = JSON.parse(checkpointToFile('x', cp));
    bad.checkpoint.manifest.format = 'other';
    expect(parseFile(JSON.stringify(bad)).ok).toBe(false);
  });

  it('base64 round-trips bytes beyond one chunk', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 256);
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
  });
});

describe('imported names', () => {
  it('mark a copy once, however often it is re-imported', () => {
    expect(importedName('grpo, lr 1e-2')).toBe('grpo, lr 1e-2 (imported copy)');
    expect(importedName(importedName('grpo, lr 1e-2'))).toBe('grpo, lr 1e-2 (imported copy)');
    expect(importedName('x'.repeat(300)).length).toBeLessThanOrEqual(200);
  });
});

describe('configs of older files', () => {
  it('take the defaults of fields added since, but must name their env and algorithm', () => {
    const { lossAgg: _l, groupStreams: _g, ...older } = run.meta.config;
    const file = JSON.parse(runToFile(run));
    file.meta.config = older;
    const r = parseFile(JSON.stringify(file));
    expect(r.ok && r.kind === 'run' && r.run.meta.config.lossAgg).toBe(defaultConfig().lossAgg);
    expect(r.ok && r.kind === 'run' && r.run.meta.config.seed).toBe(42);
    file.meta.config = { seed: 1 };
    const bad = parseFile(JSON.stringify(file));
    expect(!bad.ok && bad.message).toMatch(/meta\.config: env: is missing\nalgorithm: is missing/);
  });
});
