// Config fields as command-line flags, from the field table (core/config.ts FIELDS): a field's
// flag name, its help with range and default, its parsing, and errors that name the flag. One
// place for every command that takes config fields (train, sweep, pretrain's episode settings).
import { type Config, FIELDS, type Field, type FieldError, parseFieldText } from '../core/config.js';
import { UsageError } from './command.js';
import type { FlagSpec } from './flags.js';

/** The flag of one config field, its help naming the range (or options) and the default. */
export function fieldFlag(f: Field): FlagSpec {
  const range =
    f.kind === 'int' || f.kind === 'float'
      ? ` [${f.min}–${f.max}]`
      : f.kind === 'enum'
        ? ` [${f.options.join('|')}]`
        : '';
  return { name: f.flag, kind: 'string', help: `${f.help}${range} (default ${String(f.default)})` };
}

/** The fields of `keys`, in the table's order. */
export function fieldsOf(keys: readonly (keyof Config)[]): Field[] {
  return FIELDS.filter((f) => keys.includes(f.key as keyof Config));
}

/**
 * The config fields among `fields` that `flags` gives, parsed from their text (ranges are checked
 * where the config is resolved or validated); a value that does not parse is a usage error
 * naming its flag.
 */
export function fieldValues(
  flags: Record<string, string | number | boolean>,
  fields: readonly Field[] = FIELDS,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = flags[f.flag];
    if (v === undefined) continue;
    try {
      out[f.key] = parseFieldText(f, String(v));
    } catch (err) {
      throw new UsageError(`--${f.flag}: ${(err as Error).message.replace(`${f.key}: `, '')}`);
    }
  }
  return out;
}

/** Config errors with each field named by its flag (`--context`), where it has one. */
export function flagErrors(errors: readonly FieldError[]): FieldError[] {
  const byKey = new Map(FIELDS.map((f) => [f.key, f.flag]));
  return errors.map((e) => ({
    field: byKey.has(e.field) ? `--${byKey.get(e.field)}` : e.field,
    message: e.message,
  }));
}
