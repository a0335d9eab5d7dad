// The RAGEN-environment presets: a reason for every override, each pair differing only in the
// algorithm with the optimizer budget matched, and episode settings equal to those of the
// shipped base model for the env (public/models/index.json), so a preset never asks a base
// model for turns it was not trained on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from './config.js';
import { parseModelIndex } from './model/modelIndex.js';
import { applyPreset, PRESETS } from './presets.js';
import { RAGEN_PRESETS } from './ragenPresets.js';

const EPISODE_KEYS = [
  'maxTurns',
  'maxActionsPerTurn',
  'maxActionsPerTraj',
  'historyTurns',
  'contextLength',
] as const;

const names = Object.keys(RAGEN_PRESETS);

describe('RAGEN presets', () => {
  it('are merged into the one preset table, a vanilla and a StarPO-S preset per env', () => {
    expect(names.sort()).toEqual(
      ['bandit', 'frozenlake', 'sokoban'].flatMap((e) => [`${e}-starpo`, `${e}-starpo-s`]).sort(),
    );
    for (const n of names) expect(PRESETS[n]).toBe(RAGEN_PRESETS[n]);
  });

  it.each(names)('%s gives a reason for every override and validates', (name) => {
    const p = RAGEN_PRESETS[name]!;
    for (const k of Object.keys(p.overrides)) expect(p.reasons[k as keyof typeof p.reasons], k).toBeTruthy();
    expect(validateConfig(applyPreset(defaultConfig(), name)).ok).toBe(true);
  });

  it('pairs differ only in the algorithm’s switches, with steps and learning rate matched', () => {
    for (const e of ['bandit', 'frozenlake', 'sokoban']) {
      const trap = applyPreset(defaultConfig(), `${e}-starpo`);
      const stable = applyPreset(defaultConfig(), `${e}-starpo-s`);
      expect([trap.algorithm, stable.algorithm]).toEqual(['starpo-ppo', 'starpo-s']);
      expect(trap.klCoef).toBeGreaterThan(0);
      expect(stable.klCoef).toBe(0);
      expect([trap.filterMode, stable.filterMode]).toEqual(['off', 'subsample']);
      for (const k of [
        'env',
        'stepsPerIteration',
        'lr',
        'groups',
        'groupSize',
        'iterations',
        ...EPISODE_KEYS,
      ])
        expect(stable[k as keyof typeof stable], `${e} ${k}`).toEqual(trap[k as keyof typeof trap]);
      expect(trap.stepsPerIteration).toBeGreaterThan(0);
    }
  });

  it('use the episode settings of the shipped base model of their env', () => {
    const index = parseModelIndex(
      JSON.parse(readFileSync(new URL('../../public/models/index.json', import.meta.url), 'utf8')),
    );
    for (const p of Object.values(RAGEN_PRESETS)) {
      const entry = index.find((m) => m.env === p.overrides.env && m.size === 'nano');
      expect(entry, `${p.name}: no shipped base model for ${p.overrides.env}`).toBeDefined();
      for (const k of EPISODE_KEYS) expect(p.overrides[k], `${p.name} ${k}`).toBe(entry?.settings[k]);
    }
  });
});
