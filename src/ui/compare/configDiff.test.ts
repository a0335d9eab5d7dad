import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.js';
import { configDiff, runLabels } from './configDiff.js';

describe('configDiff', () => {
  it('lists only the differing fields, in field-table order, one value per run', () => {
    const a = defaultConfig();
    const b = { ...a, lr: 0.01, seed: 7 };
    const c = { ...a, seed: 7 };
    expect(configDiff([a, b, c])).toEqual([
      { key: 'seed', label: 'Seed', values: ['1', '7', '7'] },
      { key: 'lr', label: 'Learning rate', values: [String(a.lr), '0.01', String(a.lr)] },
    ]);
  });

  it('is empty for equal configs and for a single run', () => {
    expect(configDiff([defaultConfig(), defaultConfig()])).toEqual([]);
    expect(configDiff([{ ...defaultConfig(), lr: 0.1 }])).toEqual([]);
  });

  it('labels runs shortly: algorithm and seed, then what else differs, then a number', () => {
    const a = { ...defaultConfig(), algorithm: 'starpo-grpo' as const, seed: 303, lr: 6e-4 };
    const s = { ...a, algorithm: 'starpo-s' as const };
    expect(runLabels([a, s])).toEqual(['StarPO (GRPO) · seed 303', 'StarPO-S · seed 303']);
    expect(runLabels([a, { ...a, lr: 3e-4 }])).toEqual([
      'StarPO (GRPO) · seed 303 · Learning rate 0.0006',
      'StarPO (GRPO) · seed 303 · Learning rate 0.0003',
    ]);
    expect(runLabels([a, a])).toEqual([
      'StarPO (GRPO) · seed 303 · run 1',
      'StarPO (GRPO) · seed 303 · run 2',
    ]);
  });
});
