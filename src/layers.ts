// The layers of docs/architecture.md as a table, and the check that every import of the tree keeps to
// them (src/layers.test.ts runs it on the real files and on a fake violating one). A file's
// layer is its first folder under src/ (or scripts/, tests/); an import that resolves into a
// layer its own may not use is a violation, and so is a package a layer must not load (React,
// zustand or IndexedDB below ui; Node built-ins in core and envs outside their tests).
// Type-only imports count: a type from a higher layer ties the code to it just the same.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export type Layer =
  | 'core'
  | 'envs'
  | 'workers'
  | 'bench'
  | 'reliability'
  | 'cli'
  | 'ui'
  | 'scripts'
  | 'tests';

/** Which layers each layer may import (its own included). */
export const LAYERS: Record<Layer, readonly Layer[]> = {
  core: ['core'],
  envs: ['envs', 'core'],
  workers: ['workers', 'core', 'envs'],
  bench: ['bench', 'core', 'envs', 'workers'],
  reliability: ['reliability', 'bench', 'core', 'envs', 'workers'],
  cli: ['cli', 'core', 'envs', 'workers', 'bench', 'reliability'],
  ui: ['ui', 'core', 'envs', 'workers'],
  scripts: ['scripts', 'core', 'envs', 'workers', 'bench', 'reliability', 'cli'],
  // End-to-end specs and their fixtures drive the whole program.
  tests: ['tests', 'core', 'envs', 'workers', 'bench', 'reliability', 'cli', 'ui', 'scripts'],
};

/**
 * What a unit test (`*.test.ts`) may import beyond its layer, as path prefixes: the Node host
 * (workers/node/: a tfjs backend for tests that need WASM), and for reliability's tests the CLI,
 * whose commands they feed faults and fuzzed input. Tests are leaves: nothing imports them.
 */
export const TEST_EXTRAS: Partial<Record<Layer | '*', readonly string[]>> = {
  '*': ['src/workers/node/'],
  reliability: ['src/cli/'],
};

const UI_PACKAGES = ['react', 'react-dom', 'zustand', 'recharts', 'idb'];
const NODE_BUILTIN = /^node:/;

/** Packages a layer's files must not import (Node built-ins are checked for non-tests only). */
function forbiddenPackage(layer: Layer, spec: string, isTest: boolean): string | null {
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec);
  if (layer !== 'ui' && layer !== 'tests' && UI_PACKAGES.includes(name)) return `${name} is for ui only`;
  if ((layer === 'core' || layer === 'envs') && !isTest && (NODE_BUILTIN.test(spec) || name === 'webgpu')) {
    return `${layer} runs in the browser too: no ${spec}`;
  }
  return null;
}

/** The layer of a repository-relative path, or null outside the layers (e.g. src/layers.ts). */
export function layerOf(path: string): Layer | null {
  const parts = path.split('/');
  const top = parts[0] === 'src' ? (parts.length > 2 ? parts[1] : undefined) : parts[0];
  return top !== undefined && top in LAYERS ? (top as Layer) : null;
}

/** The modules a source text loads: static, type-only, re-exports, import(). */
function modulesOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** Every module specifier a source text imports: static, type-only, re-exports, import(), new URL(). */
export function importsOf(source: string): string[] {
  const specs = modulesOf(source);
  for (const m of source.matchAll(/new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g)) {
    if (m[1]) specs.push(m[1]);
  }
  return specs;
}

/** Joins a relative specifier onto the importing file's folder (POSIX, repository-relative). */
function resolveRelative(from: string, spec: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const p of spec.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

export interface SourceFile {
  /** Repository-relative, POSIX separators: `src/core/rng.ts`. */
  path: string;
  text: string;
}

/** Every source file (.ts, .tsx, .mjs) under `dir` of the repository at `root`, read. */
export function readSources(root: string, dir: string): SourceFile[] {
  const out: SourceFile[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !/\.(ts|tsx|mjs)$/.test(e.name)) continue;
    const abs = join(e.parentPath, e.name);
    out.push({ path: relative(root, abs).split('\\').join('/'), text: readFileSync(abs, 'utf8') });
  }
  return out;
}

export interface Violation {
  file: string;
  spec: string;
  reason: string;
}

/** The imports of `files` that break the layers, with the reason for each. */
export function layerViolations(files: readonly SourceFile[]): Violation[] {
  const out: Violation[] = [];
  for (const file of files) {
    const layer = layerOf(file.path);
    if (!layer) continue;
    const isTest = /\.test\.tsx?$/.test(file.path);
    const extras = isTest ? [...(TEST_EXTRAS['*'] ?? []), ...(TEST_EXTRAS[layer] ?? [])] : [];
    for (const spec of importsOf(file.text)) {
      if (!spec.startsWith('.')) {
        const reason = forbiddenPackage(layer, spec, isTest);
        if (reason) out.push({ file: file.path, spec, reason });
        continue;
      }
      const target = resolveRelative(file.path, spec);
      const to = layerOf(target);
      if (!to || LAYERS[layer].includes(to) || extras.some((p) => target.startsWith(p))) continue;
      out.push({ file: file.path, spec, reason: `${layer} may not import ${to}` });
    }
  }
  return out;
}

/** A floor of a folder: its name and its paths (a folder ends in `/`). */
export interface Floor {
  name: string;
  paths: readonly string[];
}

/**
 * The floors inside core, lowest first (docs/architecture.md): a file may import its own floor and
 * the floors below it, never one above. A floor is a list of paths (a folder ends in `/`); every
 * core source file stands on one. The axes' rows (`variants/`) sit below `config.ts`, which lists
 * their names; the metrics below the RL loop that writes them; presets, resolution and files on top.
 */
export const CORE_FLOORS: readonly Floor[] = [
  {
    name: 'base',
    paths: [
      'src/core/rng.ts',
      'src/core/stats.ts',
      'src/core/clock.ts',
      'src/core/tokenizer.ts',
      'src/core/parse.ts',
      'src/core/prompt.ts',
      'src/core/trajectory.ts',
    ],
  },
  { name: 'variants', paths: ['src/core/variants/'] },
  { name: 'config', paths: ['src/core/config.ts'] },
  { name: 'model', paths: ['src/core/model/'] },
  { name: 'metrics', paths: ['src/core/metrics/'] },
  { name: 'rl', paths: ['src/core/rl/', 'src/core/sft/'] },
  {
    name: 'setup',
    paths: [
      'src/core/presetType.ts',
      'src/core/ragenPresets.ts',
      'src/core/presets.ts',
      'src/core/resolve.ts',
      'src/core/urlHash.ts',
      'src/core/sweepPlan.ts',
      'src/core/files/',
    ],
  },
];

/**
 * The floors inside the CLI, lowest first: the pieces every command shares (flags, the run
 * directory, one run as `runTraining` makes it, a sweep's runner), then the study and pretraining
 * machinery built on them, then the commands, then the entry point that lists them. A command
 * never lends a piece to the floors below: a sweep runs its runs through `runTraining`, not
 * through the `train` command.
 */
export const CLI_FLOORS: readonly Floor[] = [
  {
    name: 'pieces',
    paths: [
      'src/cli/command.ts',
      'src/cli/fieldFlags.ts',
      'src/cli/flags.ts',
      'src/cli/jsonl.ts',
      'src/cli/optionTable.ts',
      'src/cli/progress.ts',
      'src/cli/runDir.ts',
      'src/cli/runRecords.ts',
      'src/cli/trainConfig.ts',
      'src/cli/runTraining.ts',
      'src/cli/sweepRunner.ts',
      'src/cli/testing.ts',
    ],
  },
  { name: 'studies', paths: ['src/cli/study/', 'src/cli/pretrain/'] },
  { name: 'commands', paths: ['src/cli/commands/', 'src/cli/trainTesting.ts'] },
  { name: 'entry', paths: ['src/cli/main.ts'] },
];

/**
 * The floors inside the page, lowest first: the store (its state and every slice of it) below
 * everything that reads and writes it; the shared widgets (the overlay panel, the time-left
 * text); the stored runs and the base model a run starts from; the explanations; the charts
 * (which carry explain buttons); the comparison (which draws charts of stored runs); the sweep
 * runner (which runs a sweep's runs to their end); the controller (which starts runs and
 * sweeps); the views opened beside the panels (the trajectory viewer, seeds side by side, the
 * tour, the sweeps dialog); the page's panels, which place all of these; and the page itself.
 */
export const UI_FLOORS: readonly Floor[] = [
  { name: 'store', paths: ['src/ui/store/'] },
  {
    name: 'widgets',
    paths: [
      'src/ui/components/OverlayPanel.tsx',
      'src/ui/components/eta.ts',
      'src/ui/labels.ts',
      'src/ui/download.ts',
    ],
  },
  { name: 'runs', paths: ['src/ui/runs/', 'src/ui/controller/baseFor.ts'] },
  { name: 'explain', paths: ['src/ui/explain/'] },
  { name: 'charts', paths: ['src/ui/charts/'] },
  { name: 'compare', paths: ['src/ui/compare/'] },
  { name: 'sweep runner', paths: ['src/ui/sweeps/'] },
  { name: 'controller', paths: ['src/ui/controller/', 'src/ui/presets.ts'] },
  {
    name: 'views',
    paths: [
      'src/ui/viewer/',
      'src/ui/fanout/',
      'src/ui/tour/',
      'src/ui/sweeps/SweepsDialog.tsx',
      'src/ui/sweeps/SweepResults.tsx',
    ],
  },
  { name: 'panels', paths: ['src/ui/components/'] },
  { name: 'page', paths: ['src/ui/App.tsx', 'src/ui/main.tsx'] },
];

/** The floor tables the lint holds folders to, by the folder under src/ they cover. */
const FLOOR_TABLES: readonly { area: string; table: string; floors: readonly Floor[] }[] = [
  { area: 'src/core/', table: 'CORE_FLOORS', floors: CORE_FLOORS },
  { area: 'src/cli/', table: 'CLI_FLOORS', floors: CLI_FLOORS },
  { area: 'src/ui/', table: 'UI_FLOORS', floors: UI_FLOORS },
];

/**
 * The index in `floors` of a file's floor, or -1 when it stands on none. A file stands on the
 * floor of the most specific path naming it: the file itself, else the longest folder above it,
 * so one file of a folder can stand on another floor than the folder's.
 */
function floorIndex(floors: readonly Floor[], path: string): number {
  let best = -1;
  let bestLength = -1;
  floors.forEach((f, i) => {
    for (const p of f.paths) {
      const names = p.endsWith('/') ? path.startsWith(p) : path === p;
      if (names && p.length > bestLength) {
        best = i;
        bestLength = p.length;
      }
    }
  });
  return best;
}

/**
 * The imports of core's, the CLI's and the page's source files (tests and fixtures left out) that climb to a
 * higher floor of their table, and the files that stand on no floor. Type-only imports count, as
 * for the layers.
 */
export function floorViolations(files: readonly SourceFile[]): Violation[] {
  const out: Violation[] = [];
  const known = new Set(files.map((f) => f.path));
  for (const file of files) {
    const t = FLOOR_TABLES.find((x) => file.path.startsWith(x.area));
    if (!t || /\.(test|fixture)\.tsx?$/.test(file.path)) continue;
    const from = floorIndex(t.floors, file.path);
    if (from < 0) {
      out.push({ file: file.path, spec: '', reason: `stands on no floor of ${t.table}` });
      continue;
    }
    for (const spec of modulesOf(file.text)) {
      if (!spec.startsWith('.')) continue;
      const target = resolveFile(file.path, spec, known) ?? resolveRelative(file.path, spec);
      if (!target.startsWith(t.area)) continue;
      const to = floorIndex(t.floors, target);
      if (to > from) {
        out.push({
          file: file.path,
          spec,
          reason: `floor ${t.floors[from]?.name} may not import floor ${t.floors[to]?.name}`,
        });
      }
    }
  }
  return out;
}

/** The file of `known` a relative specifier names: `./a.js` is `a.ts` or `a.tsx`. */
function resolveFile(from: string, spec: string, known: ReadonlySet<string>): string | null {
  const base = resolveRelative(from, spec);
  const stem = base.replace(/\.(js|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`]) if (known.has(candidate)) return candidate;
  return null;
}

/**
 * Import circles among the files under `folder` (tests and fixtures left out), each as the
 * chain of paths that closes it; empty when there is none. Every module a file loads is an edge,
 * type-only imports included (a type ties the files as much as a value); a `new URL(...)` is not:
 * it names a worker or a child process, a program of its own that the file starts, not a module
 * it evaluates.
 */
export function importCycles(files: readonly SourceFile[], folder: string): string[][] {
  const inside = files.filter(
    (f) => f.path.startsWith(`${folder}/`) && !/\.(test|fixture)\.tsx?$/.test(f.path),
  );
  const known = new Set(inside.map((f) => f.path));
  const deps = new Map(
    inside.map((f) => [
      f.path,
      modulesOf(f.text)
        .filter((s) => s.startsWith('.'))
        .map((s) => resolveFile(f.path, s, known))
        .filter((p): p is string => p !== null),
    ]),
  );
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (f: string) => {
    path.push(f);
    for (const d of deps.get(f) ?? []) {
      const at = path.indexOf(d);
      if (at >= 0) cycles.push([...path.slice(at), d]);
      else if (!done.has(d)) visit(d);
    }
    path.pop();
    done.add(f);
  };
  for (const f of known) if (!done.has(f)) visit(f);
  return cycles;
}
