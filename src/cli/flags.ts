// Command-line flags, the one parser every command and script uses (Node's util.parseArgs
// underneath): `--name value` or `--name=value`, and bare `--switch` for booleans. Unknown flags
// and missing values are usage errors naming the flag. A flag that names a choice of
// the config field table (an algorithm) is checked against the field's options here, once.
import { parseArgs } from 'node:util';
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

/**
 * Parses `args` against `specs` with Node's own parser (util.parseArgs, its tokens read here so
 * the errors name the flag as every command says them); positional arguments are refused. A
 * boolean takes a bare `--switch`, `--switch=false`, or a following true / false / 1 / 0.
 */
export function parseFlags(args: readonly string[], specs: readonly FlagSpec[]): FlagValues {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const { tokens } = parseArgs({
    args: [...args],
    options: Object.fromEntries(
      specs.map((s) => [s.name, { type: s.kind === 'bool' ? ('boolean' as const) : ('string' as const) }]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const out: FlagValues = {};
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as (typeof tokens)[number];
    if (t.kind === 'option-terminator') throw new UsageError('unexpected argument "--"');
    if (t.kind === 'positional') throw new UsageError(`unexpected argument "${t.value}"`);
    const spec = byName.get(t.name);
    if (!spec || !t.rawName.startsWith('--')) throw new UsageError(`unknown flag ${t.rawName}`);
    let text: string;
    if (spec.kind !== 'bool') {
      if (t.value === undefined) throw new UsageError(`--${t.name} needs a value`);
      text = t.value;
    } else if (t.inlineValue) text = t.value ?? '';
    else {
      const next = tokens[k + 1];
      const given = next?.kind === 'positional' && /^(true|false|0|1)$/.test(next.value);
      text = given ? (next as { value: string }).value : 'true';
      if (given) k++;
    }
    if (t.name in out) throw new UsageError(`--${t.name} is given twice`);
    out[t.name] = convert(spec, text);
  }
  return out;
}

/** The flags of a script as text by name (parsed and checked by parseFlags), for `.get(name)`. */
export function flagStrings(args: readonly string[], specs: readonly FlagSpec[]): Map<string, string> {
  return new Map(Object.entries(parseFlags(args, specs)).map(([k, v]) => [k, String(v)]));
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
