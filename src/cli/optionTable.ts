// A command's own options as a table, for the settings that are not config fields (those come
// from the field table through fieldFlags.ts): one row per option with its flag, its bounds or
// choices, its default and its help, from which the flags, their help text and the checked
// values are all made. A value out of its row's range is a usage error naming the flag, the
// range and the value. pretrain's options are the first such table (pretrain/options.ts).
import { UsageError } from './command.js';
import type { FlagSpec, FlagValues } from './flags.js';

/** One option: its flag, bounds or choices, and default, checked in one place. */
export interface OptionSpec {
  flag: string;
  kind: 'int' | 'number' | 'choice';
  min?: number;
  max?: number;
  options?: readonly string[];
  /** Its default (null: as `sameAs`'s value). */
  default: number | string | null;
  /** The flag whose value is the default when `default` is null (an earlier row). */
  sameAs?: string;
  help: string;
}

/** The values of a table's options as read: numbers, and each choice as one of its strings. */
export type OptionValues<T extends Record<string, OptionSpec>> = {
  [K in keyof T]: T[K] extends { options: readonly (infer O)[] } ? O : number;
};

/** The help of one option: what it does, its range or choices, and its default. */
function optionHelp(o: OptionSpec): string {
  const range = o.options ? o.options.join(', ') : `${o.min}–${o.max}`;
  const dflt = o.default === null ? `--${o.sameAs}` : String(o.default);
  return `${o.help} [${range}] (default ${dflt})`;
}

/** The flags of a table's options, in its order. */
export function optionFlags(table: Record<string, OptionSpec>): FlagSpec[] {
  return Object.values(table).map((o) => ({
    name: o.flag,
    kind: o.kind === 'choice' ? 'string' : o.kind,
    help: optionHelp(o),
  }));
}

/** Every option of `table` read from `f` and checked against its row, in the table's order. */
export function readOptions<T extends Record<string, OptionSpec>>(table: T, f: FlagValues): OptionValues<T> {
  const out: Record<string, number | string> = {};
  for (const [key, o] of Object.entries(table)) {
    const given = f[o.flag];
    if (o.kind === 'choice') {
      const v = String(given ?? o.default);
      if (!o.options?.includes(v))
        throw new UsageError(
          `--${o.flag} must be ${o.options?.slice(0, -1).join(', ')} or ${o.options?.at(-1)}, got "${v}"`,
        );
      out[key] = v;
      continue;
    }
    const fallback = o.default ?? out[Object.keys(table).find((k) => table[k]?.flag === o.sameAs) as string];
    const v = Number(given ?? fallback);
    const whole = o.kind !== 'int' || Number.isInteger(v);
    if (!(whole && v >= (o.min as number) && v <= (o.max as number)))
      throw new UsageError(
        `--${o.flag} must be ${o.kind === 'int' ? 'a whole number ' : ''}from ${o.min} to ${o.max}, got ${given ?? v}`,
      );
    out[key] = v;
  }
  return out as OptionValues<T>;
}
