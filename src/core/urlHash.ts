// The config in the URL hash (TensorFlow Playground style): `#env=minigrid/DoorKey-5x5&lr=0.0003…`.
// Every field is written, so a copied link reproduces the setup even if defaults change later.
// Decoding rejects unknown keys and invalid values with a message; it never drops them silently.
import {
  type Config,
  completeConfig,
  FIELDS,
  type FieldError,
  fieldByKey,
  parseFieldText,
} from './config.js';

/** Longest hash accepted, in characters. */
export const MAX_HASH_CHARS = 8192;

function encodeValue(v: unknown): string {
  return encodeURIComponent(String(v)).replace(/%2F/g, '/');
}

/** `key=value&…` for every field, in table order (no leading '#'). */
export function encodeConfigHash(config: Config): string {
  return FIELDS.map((f) => `${f.key}=${encodeValue(config[f.key as keyof Config])}`).join('&');
}

export type HashResult = { ok: true; config: Config } | { ok: false; errors: FieldError[] };

/** A hash's fields: the values that parse, and every bad part named (unknown, repeated, invalid). */
export interface HashFields {
  values: Partial<Config>;
  /** Raw text of known fields whose value does not parse (the form shows it with its error). */
  drafts: Record<string, string>;
  errors: FieldError[];
}

/** Splits a hash (with or without '#') into its fields; nothing is validated beyond parsing. */
export function decodeHashFields(hash: string): HashFields {
  if (hash.length > MAX_HASH_CHARS) {
    return {
      values: {},
      drafts: {},
      errors: [{ field: '(hash)', message: `is longer than ${MAX_HASH_CHARS} characters` }],
    };
  }
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const values: Record<string, unknown> = {};
  const drafts: Record<string, string> = {};
  const errors: FieldError[] = [];
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    let key: string;
    let text: string;
    try {
      key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
      text = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1));
    } catch {
      errors.push({ field: '(hash)', message: `"${part.slice(0, 40)}" is not valid URL encoding` });
      continue;
    }
    const field = fieldByKey.get(key);
    if (!field) {
      errors.push({ field: key, message: 'is not a config field' });
      continue;
    }
    if (eq < 0) {
      errors.push({ field: key, message: 'has no value (write key=value)' });
      continue;
    }
    if (key in values || key in drafts) {
      errors.push({ field: key, message: 'appears more than once' });
      continue;
    }
    try {
      values[key] = parseFieldText(field, text);
    } catch (err) {
      drafts[key] = text;
      errors.push({ field: key, message: (err as Error).message.replace(`${key}: `, '') });
    }
  }
  return { values: values as Partial<Config>, drafts, errors };
}

/**
 * Decodes a whole config from a hash. Missing fields take their defaults; unknown keys,
 * repeated keys and invalid values are errors naming the field.
 */
export function decodeConfigHash(hash: string, knownEnvs?: readonly string[]): HashResult {
  const { values, errors } = decodeHashFields(hash);
  if (errors.length > 0) return { ok: false, errors };
  return completeConfig(values, knownEnvs);
}
