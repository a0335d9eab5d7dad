import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.js';
import { configDiff } from './configDiff.js';

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
});
