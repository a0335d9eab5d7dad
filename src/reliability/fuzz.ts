// Seeded generators of hostile input for the fuzz tests (bad input gets a clear
// error, never a crash). Random JSON with the numbers and strings that break parsers (NaN,
// ±Inf, −0, 1e308, huge and negative integers, lone surrogates, brackets, control characters,
// prototype keys), structure-aware mutation of a valid value, and text mutation. Everything
// draws from an Rng, so a failing case is reproduced by its seed.
import type { Rng } from '../core/rng.js';

/** Numbers that break naive validation. */
export const NASTY_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1,
  0.5,
  -1e-300,
  2 ** 31,
  2 ** 32,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_VALUE,
];

/** Fragments that break naive text handling: brackets, separators, tags, odd Unicode. */
export const NASTY_FRAGMENTS: readonly string[] = [
  '[',
  ']',
  '[[',
  ']]',
  '||',
  '[SEP]',
  'search[',
  'click[',
  '<think>',
  '</answer>',
  '<answer>',
  '\u0000',
  '\u0007',
  '\n',
  '\r\n',
  '\t',
  '\u2028',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  'e\u0301',
  '%',
  '%E0%A4%A',
  '&',
  '=',
  '#',
  '"',
  "'",
  '\\',
  '__proto__',
  'constructor',
  'NaN',
  '1e999',
  '-0',
  '<script>alert(1)</script>',
  'go forward',
  'turn left',
  'pick up',
  'toggle',
];

/** A random string of up to `maxLen` UTF-16 code units mixing ASCII, fragments and odd Unicode. */
export function randomText(rng: Rng, maxLen = 64): string {
  const target = rng.int(0, maxLen + 1);
  let s = '';
  while (s.length < target) {
    const r = rng.float();
    if (r < 0.5) s += String.fromCharCode(rng.int(32, 127));
    else if (r < 0.8) s += rng.choice(NASTY_FRAGMENTS);
    else if (r < 0.9) s += String.fromCharCode(rng.int(0, 0x10000));
    else s += String.fromCodePoint(rng.int(0x10000, 0x110000));
  }
  return s.slice(0, Math.max(target, 0));
}

/** A random JSON-ish value (numbers may be NaN/Inf, which JSON.stringify writes as null). */
export function randomJson(rng: Rng, depth = 3, keys: readonly string[] = []): unknown {
  const r = rng.float();
  if (depth <= 0 || r < 0.15) return rng.choice([null, true, false]);
  if (r < 0.4) return rng.bool() ? rng.choice(NASTY_NUMBERS) : rng.normal(0, 1e3);
  if (r < 0.6) return randomText(rng, 24);
  if (r < 0.8) return Array.from({ length: rng.int(0, 5) }, () => randomJson(rng, depth - 1, keys));
  const o: Record<string, unknown> = {};
  for (let i = rng.int(0, 6); i > 0; i--) {
    const k = keys.length > 0 && rng.bool(0.7) ? rng.choice(keys) : randomText(rng, 10);
    o[k] = randomJson(rng, depth - 1, keys);
  }
  return o;
}

type Container = Record<string, unknown> | unknown[];

function containers(value: unknown, out: Container[] = []): Container[] {
  if (value !== null && typeof value === 'object') {
    out.push(value as Container);
    for (const v of Object.values(value)) containers(v, out);
  }
  return out;
}

/** A value of a different type than `v`, or a nasty one of the same type. */
function replacement(rng: Rng, v: unknown, keys: readonly string[]): unknown {
  const r = rng.float();
  if (typeof v === 'number' && r < 0.5) return rng.choice(NASTY_NUMBERS);
  if (typeof v === 'number' && r < 0.7) return Math.round(v * rng.choice([-1, 2, 1000, 1e9]));
  if (typeof v === 'string' && r < 0.5) return rng.bool() ? randomText(rng, 32) : v.repeat(rng.int(2, 50));
  if (Array.isArray(v) && r < 0.3) return [];
  return randomJson(rng, 2, keys);
}

/**
 * A deep copy of `value` with 1–`maxEdits` random edits: a field or element replaced (another
 * type, a nasty number, a long string), deleted, duplicated, or a new key added.
 */
export function mutateJson<T>(rng: Rng, value: T, maxEdits = 3, keys: readonly string[] = []): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  if (copy === null || typeof copy !== 'object') return replacement(rng, copy, keys);
  for (let e = rng.int(1, maxEdits + 1); e > 0; e--) {
    const target = rng.choice(containers(copy));
    const slots = Object.keys(target);
    const op = rng.float();
    if (slots.length === 0 || op < 0.15) {
      const k = Array.isArray(target)
        ? String(target.length)
        : rng.bool()
          ? rng.choice([...keys, 'x'])
          : randomText(rng, 8);
      (target as Record<string, unknown>)[k] = randomJson(rng, 2, keys);
      continue;
    }
    const k = rng.choice(slots);
    const rec = target as Record<string, unknown>;
    if (op < 0.3) {
      if (Array.isArray(target)) target.splice(Number(k), 1);
      else delete rec[k];
    } else if (op < 0.4 && Array.isArray(target)) {
      target.push(...Array.from({ length: rng.int(1, 4) }, () => target[Number(k)]));
    } else {
      rec[k] = replacement(rng, rec[k], keys);
    }
  }
  return copy;
}

/** `text` with 1–4 character-level edits: insert, delete, replace or duplicate a slice. */
export function mutateText(rng: Rng, text: string): string {
  let s = text;
  for (let e = rng.int(1, 5); e > 0; e--) {
    const at = rng.int(0, s.length + 1);
    const op = rng.float();
    if (op < 0.3) s = s.slice(0, at) + randomText(rng, 4) + s.slice(at);
    else if (op < 0.55) s = s.slice(0, at) + s.slice(at + rng.int(1, 9));
    else if (op < 0.8) s = s.slice(0, at) + randomText(rng, 2) + s.slice(at + 1);
    else s = s.slice(0, at) + s.slice(at, at + rng.int(1, 40)).repeat(rng.int(2, 6)) + s.slice(at);
  }
  return s;
}

/** Runs `f`; returns the thrown value, or undefined when it returned. */
export function thrown(f: () => unknown): unknown {
  try {
    f();
    return undefined;
  } catch (err) {
    return err;
  }
}

/** A thrown value is a clean refusal: an Error of our own (not a TypeError/RangeError) with a message. */
export function isCleanError(err: unknown): boolean {
  return (
    err instanceof Error &&
    !(err instanceof TypeError) &&
    !(err instanceof RangeError) &&
    !(err instanceof SyntaxError) &&
    err.message.length > 0
  );
}
