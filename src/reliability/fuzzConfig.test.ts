// Fuzz of the config's front doors (docs/security.md, "Input"): whole and partial configs (validateConfig,
// completeConfig), the URL hash (decodeConfigHash), one field's text (parseFieldText) and the
// CLI flags (parseFlags). Thousands of random and mutated inputs from a seeded Rng: nothing
// throws where a result is promised, every refusal names a field with a short message, and
// every accepted config is in range and round-trips through the hash.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../cli/command.js';
import { TRAIN_FIELD_FLAGS } from '../cli/commands/train.js';
import { parseFlags } from '../cli/flags.js';
import {
  type ConfigResult,
  completeConfig,
  defaultConfig,
  FIELDS,
  fieldByKey,
  parseFieldText,
  validateConfig,
} from '../core/config.js';
import { Rng } from '../core/rng.js';
import { decodeConfigHash, encodeConfigHash, MAX_HASH_CHARS } from '../core/urlHash.js';
import { envIds } from '../envs/registry.js';
import { isCleanError, mutateJson, mutateText, randomJson, randomText, thrown } from './fuzz.js';

const KEYS = FIELDS.map((f) => f.key);
const ENVS = envIds();

/** Every accepted config is a full, in-range one; every refusal names fields briefly. */
function checkResult(r: ConfigResult, input: unknown, hash = false): void {
  if (r.ok) {
    expect(validateConfig(r.config, ENVS).ok).toBe(true);
    for (const f of FIELDS) {
      const v = r.config[f.key as keyof typeof r.config];
      if (f.kind === 'int' || f.kind === 'float') {
        expect(Number.isFinite(v as number)).toBe(true);
        expect(v as number).toBeGreaterThanOrEqual(f.min);
        expect(v as number).toBeLessThanOrEqual(f.max);
      }
    }
    return;
  }
  expect(r.errors.length).toBeGreaterThan(0);
  const inputKeys = input && typeof input === 'object' ? Object.keys(input) : [];
  for (const e of r.errors) {
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
    expect(e.message.length).toBeLessThan(400);
    // A hash names the (decoded) unknown key it found; a JSON config names the input's key.
    if (hash) expect(e.field.length).toBeLessThanOrEqual(MAX_HASH_CHARS);
    expect(
      hash || fieldByKey.has(e.field) || e.field.startsWith('(') || inputKeys.includes(e.field),
      `${e.field}: ${e.message}`,
    ).toBe(true);
  }
}

describe('config fuzz', () => {
  it('validateConfig and completeConfig never throw and name every problem', () => {
    const rng = new Rng(101);
    const base = defaultConfig();
    let accepted = 0;
    for (let i = 0; i < 1500; i++) {
      const input = i % 3 === 0 ? randomJson(rng, 3, KEYS) : mutateJson(rng, base, 3, KEYS);
      const full = validateConfig(input, ENVS);
      checkResult(full, input);
      const partial = completeConfig(input, ENVS);
      checkResult(partial, input);
      if (partial.ok) accepted++;
    }
    // The mutations are not all fatal: some inputs must still be accepted, or the test checks nothing.
    expect(accepted).toBeGreaterThan(50);
  });

  it('prototype keys are refused, not merged', () => {
    const r = completeConfig(JSON.parse('{"__proto__": {"groups": 0}, "constructor": 1}'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.field).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).groups).toBeUndefined();
  });
});

describe('URL hash fuzz', () => {
  it('decodes random and mutated hashes without throwing; accepted ones round-trip', () => {
    const rng = new Rng(202);
    const good = encodeConfigHash({ ...defaultConfig(), seed: 7, lr: 0.001 });
    let accepted = 0;
    for (let i = 0; i < 1500; i++) {
      const hash = i % 4 === 0 ? randomText(rng, 200) : `${rng.bool() ? '#' : ''}${mutateText(rng, good)}`;
      const r = decodeConfigHash(hash, ENVS);
      checkResult(r, {}, true);
      if (r.ok) {
        accepted++;
        const again = decodeConfigHash(encodeConfigHash(r.config), ENVS);
        expect(again).toEqual(r);
      }
    }
    expect(accepted).toBeGreaterThan(10);
  });

  it('quotes a long bad value only in part', () => {
    const r = decodeConfigHash(`#lr=${'x'.repeat(5000)}`);
    expect(r).toEqual({
      ok: false,
      errors: [{ field: 'lr', message: `"${'x'.repeat(40)}…" is not a number` }],
    });
  });

  it('refuses an oversized hash before parsing it, stating the limit', () => {
    const r = decodeConfigHash(`#seed=${'1'.repeat(MAX_HASH_CHARS)}`);
    expect(r).toEqual({
      ok: false,
      errors: [{ field: '(hash)', message: `is longer than ${MAX_HASH_CHARS} characters` }],
    });
  });
});

describe('field text and CLI flag fuzz', () => {
  it('parseFieldText returns a value of the field kind or throws an Error naming the field', () => {
    const rng = new Rng(303);
    for (let i = 0; i < 3000; i++) {
      const f = rng.choice(FIELDS);
      const text = rng.bool()
        ? randomText(rng, 20)
        : rng.choice(['0', '-1', '1e309', '0.5', String(2 ** 40)]);
      const err = thrown(() => parseFieldText(f, text));
      if (err === undefined) {
        const v = parseFieldText(f, text);
        if (f.kind === 'int' || f.kind === 'float') expect(Number.isFinite(v)).toBe(true);
        if (f.kind === 'bool') expect(typeof v).toBe('boolean');
      } else {
        expect(isCleanError(err)).toBe(true);
        expect((err as Error).message.startsWith(`${f.key}: `)).toBe(true);
      }
    }
  });

  it('parseFlags accepts or refuses random argument lists with a UsageError', () => {
    const rng = new Rng(404);
    const names = TRAIN_FIELD_FLAGS.map((f) => f.name);
    for (let i = 0; i < 2000; i++) {
      const args = Array.from({ length: rng.int(0, 6) }, () =>
        rng.bool(0.6) ? `--${rng.bool(0.8) ? rng.choice(names) : randomText(rng, 6)}` : randomText(rng, 12),
      );
      const err = thrown(() => parseFlags(args, TRAIN_FIELD_FLAGS));
      if (err !== undefined) expect(err).toBeInstanceOf(UsageError);
    }
  });
});
