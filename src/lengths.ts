// The length limits of the style the code keeps (files of roughly 50–300 lines, one concern each)
// as a check: a source file over 400 lines or a function over 80 is an offender, and the lint step
// (scripts/check-lengths.ts) fails on any offender not in the allowlist (scripts/lengths.allow),
// and on a listed one that is gone, so the list can only shrink. Tests and their fixtures are
// left out, and so are generated files (an `@generated` mark in the head) and the data tables the
// allowlist names as such. Functions are measured with the TypeScript parser (no type-check):
// from the first token of the declaration (its JSDoc left out) to its closing brace. A measured
// file must also open with its head comment (what it owns): one that does not is reported too, and
// no allowlist line lets it through.
import { createRequire } from 'node:module';
import type TS from 'typescript';

// Loaded with require: importing the 9 MB CommonJS module as ESM costs a second of export
// lexing, and the lint step must stay fast.
const ts: typeof TS = createRequire(import.meta.url)('typescript');

/** A file over this many lines is an offender. */
export const MAX_FILE_LINES = 400;
/** A function over this many lines is an offender. */
export const MAX_FUNCTION_LINES = 80;

export interface SourceText {
  /** Repository-relative, POSIX separators: `src/core/rng.ts`. */
  path: string;
  text: string;
}

/** One file or function over its limit. */
export interface Offender {
  kind: 'file' | 'function';
  path: string;
  /** The function's qualified name (`Trainer.step`, `MetricChart>useMemo()`); '' for a file. */
  name: string;
  lines: number;
}

/** Whether `path` is measured at all: TypeScript source, not a test, a fixture or generated. */
export function measured(file: SourceText): boolean {
  if (!/\.tsx?$/.test(file.path) || /\.d\.ts$/.test(file.path)) return false;
  if (/\.(test|spec|fixture)\.tsx?$/.test(file.path)) return false;
  return !/@generated\b/.test(file.text.slice(0, 500));
}

/** Whether a text opens with a comment (`//` or `/*`) on its first line, after a `#!` line if any. */
export function hasHeadComment(text: string): boolean {
  const lines = text.split('\n', 2);
  const first = lines[0]?.startsWith('#!') ? lines[1] : lines[0];
  return /^(\/\/|\/\*)/.test(first ?? '');
}

/** The measured files among `files` that do not open with their head comment. */
export function headless(files: readonly SourceText[]): string[] {
  return files.filter((f) => measured(f) && !hasHeadComment(f.text)).map((f) => f.path);
}

/** The line count of a text, as an editor shows it (a final newline ends the last line). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

type FunctionNode =
  | TS.FunctionDeclaration
  | TS.MethodDeclaration
  | TS.ConstructorDeclaration
  | TS.GetAccessorDeclaration
  | TS.SetAccessorDeclaration
  | TS.FunctionExpression
  | TS.ArrowFunction;

function isFunction(node: TS.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node)
  );
}

/** The text of a declaration's name, or null when it has none that reads as a name. */
function nameText(name: TS.Node | undefined, sf: TS.SourceFile): string | null {
  if (!name) return null;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return name.getText(sf);
}

/**
 * The name a node gives to what it holds: a function, class or variable's own, an object
 * literal's the variable or property it is assigned to, a call's argument `callee()`.
 */
function ownName(node: TS.Node, sf: TS.SourceFile): string | null {
  if (isFunction(node)) {
    if (ts.isConstructorDeclaration(node)) return 'constructor';
    const own = 'name' in node ? nameText(node.name, sf) : null;
    if (own) return own;
    const p = node.parent;
    if (ts.isCallExpression(p) || ts.isNewExpression(p)) return `${p.expression.getText(sf)}()`;
    return null;
  }
  if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) return nameText(node.name, sf);
  if (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node))
    return nameText(node.name, sf);
  return null;
}

/** How a name joins its container's: a member with '.', anything inside a function with '>'. */
function joiner(node: TS.Node): string {
  for (let p = node.parent; p; p = p.parent) {
    if (isFunction(p)) return '>';
    if (ts.isClassLike(p) || ts.isObjectLiteralExpression(p)) return '.';
  }
  return '.';
}

/** Every function of a file with its qualified name and length in lines, in source order. */
export function functionLengths(file: SourceText): Omit<Offender, 'kind'>[] {
  const sf = ts.createSourceFile(
    file.path,
    file.text,
    ts.ScriptTarget.Latest,
    true,
    file.path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: Omit<Offender, 'kind'>[] = [];
  const seen = new Map<string, number>();
  const visit = (node: TS.Node, scope: string) => {
    const own = ownName(node, sf);
    // `const X = memo(function X() {…})`: the function repeats its holder's name, said once.
    const repeats = own !== null && isFunction(node) && scope.split(/[.>]/).at(-1) === own;
    const here = own && !repeats ? (scope ? `${scope}${joiner(node)}${own}` : own) : scope;
    if (isFunction(node) && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const base = here || '<anonymous>';
      const k = (seen.get(base) ?? 0) + 1;
      seen.set(base, k);
      out.push({ path: file.path, name: k > 1 ? `${base}#${k}` : base, lines: end - start + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, here));
  };
  visit(sf, '');
  return out;
}

/** The files over MAX_FILE_LINES and the functions over MAX_FUNCTION_LINES among `files`. */
export function offenders(files: readonly SourceText[], dataTables: ReadonlySet<string>): Offender[] {
  const out: Offender[] = [];
  for (const file of files) {
    if (!measured(file)) continue;
    const lines = lineCount(file.text);
    if (lines > MAX_FILE_LINES && !dataTables.has(file.path))
      out.push({ kind: 'file', path: file.path, name: '', lines });
    // A file no longer than the function limit cannot hold a function over it.
    if (lines <= MAX_FUNCTION_LINES) continue;
    for (const f of functionLengths(file))
      if (f.lines > MAX_FUNCTION_LINES) out.push({ kind: 'function', ...f });
  }
  return out;
}

/** The allowlist as read: the offenders it lets through and the data tables it exempts. */
export interface Allowlist {
  /** `file <path>` and `function <path> <name>` lines, as keys (see offenderKey). */
  allowed: Set<string>;
  /** `data <path>` lines: tables of data, not code, exempt from the file limit. */
  dataTables: Set<string>;
}

/** The allowlist line of an offender: `file <path>` or `function <path> <name>`. */
export function offenderKey(o: Pick<Offender, 'kind' | 'path' | 'name'>): string {
  return o.kind === 'file' ? `file ${o.path}` : `function ${o.path} ${o.name}`;
}

/** Reads the allowlist: one entry a line, `#` comments and blank lines ignored. */
export function parseAllowlist(text: string): Allowlist {
  const allowed = new Set<string>();
  const dataTables = new Set<string>();
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const [kind, path, ...rest] = line.split(/\s+/);
    if (kind === 'data' && path && rest.length === 0) dataTables.add(path);
    else if (kind === 'file' && path && rest.length === 0) allowed.add(`file ${path}`);
    else if (kind === 'function' && path && rest.length === 1) allowed.add(`function ${path} ${rest[0]}`);
    else
      throw new Error(
        `lengths allowlist, line ${i + 1}: "${raw}" is not "file|data <path>" or "function <path> <name>"`,
      );
  }
  return { allowed, dataTables };
}

/** What the check found: offenders the list lacks, and listed ones that are gone. */
export interface LengthReport {
  all: Offender[];
  unlisted: Offender[];
  /** Allowlist lines whose offender is within its limit now, or no longer exists. */
  stale: string[];
  /** Measured files whose first line is not a comment (no head comment): never allowed. */
  headless: string[];
}

/** Measures `files` against the limits and `allow`. */
export function checkLengths(files: readonly SourceText[], allow: Allowlist): LengthReport {
  const all = offenders(files, allow.dataTables);
  const found = new Set(all.map(offenderKey));
  return {
    all,
    unlisted: all.filter((o) => !allow.allowed.has(offenderKey(o))),
    stale: [...allow.allowed].filter((k) => !found.has(k)).sort(),
    headless: headless(files),
  };
}
