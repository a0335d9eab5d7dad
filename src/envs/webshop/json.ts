// Validation of the contract's JSON shapes (docs/cli-contracts.md): a product, a goal and the
// chosen options, from untrusted parsed JSON. Each error names the offending field.
import type { Goal, Product } from './types.js';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(o: Json, key: string, where: string, fallback?: string): string {
  const v = o[key];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string') throw new Error(`${where}.${key} must be a string`);
  return v;
}

function strList(o: Json, key: string, where: string): string[] {
  const v = o[key] ?? [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    throw new Error(`${where}.${key} must be an array of strings`);
  }
  return v as string[];
}

/** A product from JSON; `where` prefixes error messages (e.g. "product", "catalog[3]"). */
export function parseProduct(value: unknown, where = 'product'): Product {
  if (!isObject(value)) throw new Error(`${where} must be an object`);
  const options: Record<string, string[]> = {};
  const rawOptions = value.options ?? {};
  if (!isObject(rawOptions)) throw new Error(`${where}.options must be an object of string arrays`);
  for (const [name, values] of Object.entries(rawOptions)) {
    if (!Array.isArray(values) || values.some((x) => typeof x !== 'string')) {
      throw new Error(`${where}.options.${name} must be an array of strings`);
    }
    options[name] = values as string[];
  }
  const price = value.price ?? 100;
  if (typeof price !== 'number' || !Number.isFinite(price)) {
    throw new Error(`${where}.price must be a finite number`);
  }
  return {
    asin: str(value, 'asin', where),
    title: str(value, 'title', where),
    description: str(value, 'description', where, ''),
    bulletPoints: strList(value, 'bulletPoints', where),
    category: str(value, 'category', where),
    query: str(value, 'query', where),
    attributes: strList(value, 'attributes', where),
    options,
    price,
  };
}

/** A goal from JSON; `priceUpper` must be a number > 0 (the contract's edge-case rule). */
export function parseGoal(value: unknown, where = 'goal'): Goal {
  if (!isObject(value)) throw new Error(`${where} must be an object`);
  const priceUpper = value.priceUpper;
  if (typeof priceUpper !== 'number' || !Number.isFinite(priceUpper) || priceUpper <= 0) {
    throw new Error(`${where}.priceUpper must be a number > 0`);
  }
  return {
    asin: typeof value.asin === 'string' ? value.asin : '',
    name: str(value, 'name', where),
    query: str(value, 'query', where),
    category: str(value, 'category', where),
    attributes: strList(value, 'attributes', where),
    goalOptions: strList(value, 'goalOptions', where),
    priceUpper,
    instruction: typeof value.instruction === 'string' ? value.instruction : '',
  };
}

/** The chosen options: an object of strings (missing means none chosen). */
export function parseChosen(value: unknown, where = 'chosen'): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new Error(`${where} must be an object of strings`);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new Error(`${where}.${k} must be a string`);
  }
  return value as Record<string, string>;
}
