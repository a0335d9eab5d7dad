// Command-line flags: `--name value` or `--name=value`, and bare `--switch` for booleans.
// Unknown flags and missing values are usage errors naming the flag. A flag that names a choice of
// the config field table (an algorithm) is checked against the field's options here, once.
import { type Config, fieldByKey } from '../core/config.js';
import { UsageError } from './command.js';

export interface FlagSpec {
  /** Flag name without dashes. */
  name: string;
  kind: 'string' | 'number' | 'int' | 'bool';
  help: string;
}

export type FlagValues = Record<string, string | number | boolean>;

function convert(spec: FlagSpec, text: string): string | number | boolean {
  if (spec.kind === 'string') return text;
  if (spec.kind === 'bool') {
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
    throw new UsageError(`--${spec.name}: "${text}" is not true or false`);
  }
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v))
    throw new UsageError(`--${spec.name}: "${text}" is not a number`);
  if (spec.kind === 'int' && !Number.isInteger(v))
    throw new UsageError(`--${spec.name}: "${text}" is not a whole number`);
  return v;
}

/** Parses `args` against `specs`; positional arguments are refused. */
export function parseFlags(args: readonly string[], specs: readonly FlagSpec[]): FlagValues {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const out: FlagValues = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`unknown flag --${name}`);
    let text: string;
    if (eq >= 0) text = arg.slice(eq + 1);
    else if (spec.kind === 'bool' && (i + 1 >= args.length || (args[i + 1] as string).startsWith('--')))
      text = 'true';
    else {
      if (i + 1 >= args.length) throw new UsageError(`--${name} needs a value`);
      text = args[++i] as string;
    }
    if (name in out) throw new UsageError(`--${name} is given twice`);
    out[name] = convert(spec, text);
  }
  return out;
}

/** `  --name  help` lines for a usage text. */
export function flagHelp(specs: readonly FlagSpec[]): string {
  const w = Math.max(...specs.map((s) => s.name.length)) + 2;
  return specs.map((s) => `  --${s.name.padEnd(w)}${s.help}`).join('\n');
}

/** `text` as one of the options of the config field `key` (core/config.ts FIELDS), else a usage error. */
export function choiceFlag<K extends keyof Config>(
  key: K,
  text: string,
  flag = fieldByKey.get(key)?.flag,
): Config[K] {
  const field = fieldByKey.get(key);
  const options = field?.kind === 'enum' ? field.options : [];
  if (!options.includes(text))
    throw new UsageError(`--${flag}: "${text}" is not one of ${options.join(', ')}`);
  return text as Config[K];
}
