// The one config resolution (resolve.ts): each layer wins over the one before it, an algorithm
// the user picks sets its switches over a preset's, and the base model's context bounds the run.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from './config.js';
import { PRESETS } from './presets.js';
import { type BaseLayer, layersEnv, manifestLayer, resolveConfig } from './resolve.js';

const doorKeyBase: BaseLayer = {
  label: 'the base model minigrid-doorkey-5x5-nano',
  settings: { contextLength: 256, maxTurns: 3, historyTurns: 1, maxActionsPerTraj: 15, maxTokensPerTurn: 40 },
  context: 256,
};

describe('resolveConfig', () => {
  it('layers defaults ← base ← algorithm ← preset ← edits, and says where each value came from', () => {
    const r = resolveConfig({ base: doorKeyBase, preset: 'echo-trap', edits: { seed: 7, maxTurns: 2 } });
    expect(r.errors).toEqual([]);
    const c = r.values;
    expect(c.contextLength).toBe(256); // the base model's, not the default 512
    expect(r.sources.contextLength).toBe('base');
    expect(c.historyTurns).toBe(1);
    expect(c.maxTurns).toBe(2); // the edit beats the base
    expect(r.sources.maxTurns).toBe('edit');
    expect(c.lr).toBe(PRESETS['echo-trap']?.overrides.lr); // the preset beats the default
    expect(r.sources.lr).toBe('preset');
    expect(c.advantage).toBe('grpo'); // starpo-grpo's switch
    expect(c.seed).toBe(7);
    expect(r.sources.entropyCoef).toBe('default');
    expect(c.gamma).toBe(defaultConfig().gamma);
  });

  it("an algorithm the user picks sets its switches over the preset's", () => {
    const s = resolveConfig({ base: doorKeyBase, preset: 'stable', edits: {} }).values;
    expect(s.algorithm).toBe('starpo-s');
    expect(s.filterMode).not.toBe('off');
    const ppo = resolveConfig({ base: doorKeyBase, preset: 'stable', edits: { algorithm: 'starpo-ppo' } });
    expect(ppo.values.filterMode).toBe('off');
    expect(ppo.sources.filterMode).toBe('algorithm');
    // The preset's budget stays: only the switches follow the new algorithm.
    expect(ppo.values.groups).toBe(PRESETS.stable?.overrides.groups);
  });

  it("picking the preset's own algorithm keeps the preset's overrides (the echo-trap preset's step and groups)", () => {
    const own = resolveConfig({
      base: doorKeyBase,
      preset: 'echo-trap',
      edits: { algorithm: 'starpo-grpo' },
    }).values;
    const none = resolveConfig({ base: doorKeyBase, preset: 'echo-trap', edits: {} }).values;
    expect(own).toEqual(none);
    expect(own.lr).toBe(PRESETS['echo-trap']?.overrides.lr);
    expect(own.groupSize).toBe(PRESETS['echo-trap']?.overrides.groupSize);
  });

  it('refuses a context the base model cannot read, naming it and what to do', () => {
    const r = resolveConfig({ base: doorKeyBase, preset: 'echo-trap', edits: { contextLength: 512 } });
    expect(r.errors).toEqual([
      {
        field: 'contextLength',
        message:
          'must be at most 256: the base model minigrid-doorkey-5x5-nano reads 256 tokens (lower it, or choose the untrained base)',
      },
    ]);
    // An untrained base is built to fit: any context in range runs.
    expect(resolveConfig({ base: null, edits: { contextLength: 512 } }).errors).toEqual([]);
  });

  it('names an unknown preset and keeps the field errors', () => {
    const r = resolveConfig({ preset: 'nope', edits: { groups: 0 } });
    expect(r.errors.map((e) => e.field)).toEqual(['(preset)', 'groups']);
  });

  it('reads the env and size from the edits, then the preset, then the defaults', () => {
    expect(layersEnv({ preset: 'echo-trap' })).toEqual({ env: 'minigrid/DoorKey-5x5', modelSize: 'nano' });
    expect(layersEnv({ preset: 'echo-trap', edits: { env: 'bandit/Bandit' } }).env).toBe('bandit/Bandit');
    expect(layersEnv({}).env).toBe(defaultConfig().env);
  });

  it("takes a manifest's episode settings and context, ignoring keys that are not episode settings", () => {
    const layer = manifestLayer(
      {
        policy: { config: { context: 256 } },
        meta: { settings: { maxTurns: 3, lr: 1, contextLength: 256 } },
      },
      'x',
      { historyTurns: 1 },
    );
    expect(layer).toEqual({
      label: 'x',
      settings: { maxTurns: 3, contextLength: 256, historyTurns: 1 },
      context: 256,
    });
  });
});
