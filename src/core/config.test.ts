import { describe, expect, it } from 'vitest';
import { completeConfig, defaultConfig, FIELDS, validateConfig } from './config.js';
import { decodeConfigHash, encodeConfigHash } from './urlHash.js';

describe('config', () => {
  it('defaults validate', () => {
    const r = validateConfig(defaultConfig());
    expect(r.ok).toBe(true);
  });

  it('every field has a help line, a flag and a default inside its range', () => {
    const flags = new Set<string>();
    for (const f of FIELDS) {
      expect(f.help.length, f.key).toBeGreaterThan(10);
      expect(flags.has(f.flag), f.flag).toBe(false);
      flags.add(f.flag);
      if (f.kind === 'int' || f.kind === 'float') {
        expect(f.default).toBeGreaterThanOrEqual(f.min);
        expect(f.default).toBeLessThanOrEqual(f.max);
      }
    }
  });

  it('names each invalid field in the error', () => {
    for (const f of FIELDS) {
      const bad: unknown =
        f.kind === 'int'
          ? f.max + 1
          : f.kind === 'float'
            ? f.min - 1
            : f.kind === 'bool'
              ? 'yes'
              : 'no such value!';
      const r = validateConfig({ ...defaultConfig(), [f.key]: bad });
      expect(r.ok, f.key).toBe(false);
      if (!r.ok)
        expect(
          r.errors.map((e) => e.field),
          f.key,
        ).toContain(f.key);
    }
  });

  it('states the allowed range in numeric errors', () => {
    const r = validateConfig({ ...defaultConfig(), groups: 0 });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors[0]).toEqual({ field: 'groups', message: 'must be at least 1 (allowed 1–128)' });
  });

  it('reports several errors at once, unknown and missing keys included', () => {
    const { lr: _lr, ...rest } = defaultConfig();
    const r = validateConfig({ ...rest, seed: 1.5, bogus: 3 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      const fields = r.errors.map((e) => e.field).sort();
      expect(fields).toEqual(['bogus', 'lr', 'seed']);
      expect(r.errors.find((e) => e.field === 'lr')?.message).toBe('is missing');
      // A fraction in a whole-number field is not "missing" (zod leaves the input out of its issue).
      expect(r.errors.find((e) => e.field === 'seed')?.message).toBe(
        'must be a whole number from 0 to 4294967295',
      );
    }
  });

  it('applies cross-field rules', () => {
    const r = validateConfig({ ...defaultConfig(), maxActionsPerTurn: 8, maxActionsPerTraj: 4 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.field).toBe('maxActionsPerTurn');
    const big = validateConfig({ ...defaultConfig(), groups: 128, groupSize: 64 });
    expect(big.ok).toBe(false);
    if (!big.ok) expect(big.errors[0]?.message).toMatch(/limit is 4096/);
  });

  it('refuses fewer rollouts per group than the advantage estimator needs, whatever the algorithm', () => {
    // DPO is chosen by advantage 'none', not by the algorithm's name: a PPO preset switched to it
    // with one rollout per group would have no pair to learn from.
    const dpo = validateConfig({
      ...defaultConfig(),
      algorithm: 'starpo-ppo',
      advantage: 'none',
      groupSize: 1,
    });
    expect(dpo).toEqual({
      ok: false,
      errors: [
        {
          field: 'groupSize',
          message:
            'must be at least 2 with advantage "none": online DPO pairs the best and worst trajectory of a group',
        },
      ],
    });
    const grpo = validateConfig({ ...defaultConfig(), advantage: 'grpo', groupSize: 1 });
    expect(grpo.ok).toBe(false);
    if (!grpo.ok)
      expect(grpo.errors.map((e) => e.message)).toEqual([
        expect.stringMatching(/at least 2 with advantage "grpo"/),
      ]);
    for (const advantage of ['gae', 'turn-gae'] as const) {
      expect(validateConfig({ ...defaultConfig(), advantage, groupSize: 1 }).ok, advantage).toBe(true);
      expect(validateConfig({ ...defaultConfig(), advantage, groupSize: 2 }).ok, advantage).toBe(true);
    }
    expect(validateConfig({ ...defaultConfig(), advantage: 'none', groupSize: 2 }).ok).toBe(true);
  });

  it('checks the env id against known ids when given', () => {
    const r = completeConfig({ env: 'minigrid/Nope-1x1' }, ['minigrid/DoorKey-5x5']);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.field).toBe('env');
  });
});

describe('URL hash', () => {
  it('round-trips every field', () => {
    const c = {
      ...defaultConfig(),
      env: 'webshop/lite',
      lr: 0.0012345,
      whiten: false,
      filterMode: 'oversample' as const,
      seed: 4294967295,
    };
    const hash = encodeConfigHash(c);
    const r = decodeConfigHash(`#${hash}`);
    expect(r).toEqual({ ok: true, config: c });
  });

  it('fills missing fields with defaults', () => {
    const r = decodeConfigHash('#seed=9&algorithm=starpo-grpo');
    expect(r).toEqual({ ok: true, config: { ...defaultConfig(), seed: 9, algorithm: 'starpo-grpo' } });
  });

  it('rejects unknown keys and invalid values by name, never dropping them', () => {
    const r = decodeConfigHash('#seed=abc&colour=red&lr=5&whiten=maybe&groups');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.map((e) => e.field).sort()).toEqual(['colour', 'groups', 'seed', 'whiten']);
    }
    const range = decodeConfigHash('#lr=5');
    expect(range.ok).toBe(false);
    if (!range.ok)
      expect(range.errors).toEqual([{ field: 'lr', message: 'must be at most 0.1 (allowed 0–0.1)' }]);
  });

  it('rejects repeated keys, bad encoding and oversized hashes', () => {
    expect(decodeConfigHash('#seed=1&seed=2').ok).toBe(false);
    expect(decodeConfigHash('#seed=%E0%A4%A').ok).toBe(false);
    expect(decodeConfigHash(`#seed=${'1'.repeat(9000)}`).ok).toBe(false);
  });
});
