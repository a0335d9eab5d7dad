// Comparing a stored run's config.json with the planned config: fields added since the run was
// made are completed with today's defaults, and only those; any changed value is a change.
import { describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../core/config.js';
import { completeStoredConfig, sameStoredConfig } from './sweepRunner.js';

describe('stored configs', () => {
  const planned: Config = { ...defaultConfig(), lr: 0.0005, lossAgg: 'token-mean' };
  const { lossAgg: _l, groupStreams: _g, ...old } = planned as unknown as Record<string, unknown>;

  it('completes only the missing keys, with their defaults', () => {
    const done = completeStoredConfig({ lr: 0.0005, lossAgg: 'seq-mean-token-mean' });
    expect(done.lr).toBe(0.0005);
    expect(done.lossAgg).toBe('seq-mean-token-mean'); // stored value kept, not the default
    expect(done.groupStreams).toBe('shared'); // missing: today's default
    expect(Object.keys(done).sort()).toEqual(Object.keys(defaultConfig()).sort());
  });

  it('counts a config lacking fields added since, at their defaults, as the same', () => {
    expect(sameStoredConfig(old, planned)).toBe(true);
    // Key order does not matter.
    const reversed = Object.fromEntries(Object.entries(planned).reverse());
    expect(sameStoredConfig(reversed, planned)).toBe(true);
  });

  it('still sees a changed value, a missing field the plan sets off its default, and an unknown key', () => {
    expect(sameStoredConfig({ ...old, lr: 0.001 }, planned)).toBe(false);
    // The plan gives each rollout its own stream; a stored run without the field ran with 'shared'.
    const perGroup = { ...planned, groupStreams: 'independent' } as unknown as Config;
    expect(sameStoredConfig(old, perGroup)).toBe(false);
    expect(sameStoredConfig({ ...planned, retired: 1 }, planned)).toBe(false);
  });
});
