// Planning a sweep. The seeds of a sweep (a count or a list) are read here for the CLI's `sweep`
// command and the browser alike. An in-browser sweep is up to two hyperparameters with a few
// values each × seeds, on top of the current setup. Each run's config is resolved as the setup's is (core/resolve.ts: the
// base model's settings, the preset, the user's edits, then the cell's values) and placed in
// the CLI's layout <preset>/<algo>/seed-<s>, the preset naming the non-algorithm axis values.
import { type Config, FIELDS, type FieldError, fieldByKey, parseFieldText } from './config.js';
import { runPath, type SweepAxis } from './files/sweepBundle.js';
import { type BaseLayer, type MemoryBudget, resolveConfig } from './resolve.js';
import { ALGORITHMS } from './variants/algorithms.js';

/** Fields that make sense as sweep axes (not the seed: seeds are their own dimension). */
export const SWEEPABLE = FIELDS.filter((f) => f.key !== 'seed' && f.key !== 'backend' && f.key !== 'env');

export const MAX_SWEEP_RUNS = 64;

/** One planned run. */
export interface PlannedRun {
  path: string;
  preset: string;
  algo: string;
  seed: number;
  config: Config;
}

/** Parses "a, b, c" into an axis of `key`'s values (canonical text); throws naming the field. */
export function parseAxis(key: string, text: string): SweepAxis {
  const field = fieldByKey.get(key);
  if (!field) throw new Error(`${key} is not a setting`);
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length === 0) throw new Error(`${field.label}: give at least one value`);
  if (parts.length > 8) throw new Error(`${field.label}: at most 8 values`);
  const values = parts.map((p) => String(parseFieldText(field, p)));
  if (new Set(values).size !== values.length) throw new Error(`${field.label}: a value is repeated`);
  return { key, values };
}

/** Parses "1, 2" or a count "3" (seeds 1..3, at most `maxCount`); throws saying what is wrong. */
export function parseSeeds(text: string, maxCount = 16): number[] {
  const t = text.trim();
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    if (n < 1 || n > maxCount) throw new Error(`seeds: a count from 1 to ${maxCount}`);
    return Array.from({ length: n }, (_, i) => i + 1);
  }
  const seeds = t.split(',').map((s) => Number(s.trim()));
  if (seeds.length === 0 || seeds.some((s) => !Number.isInteger(s) || s < 0))
    throw new Error('seeds: a count or a comma-separated list of whole numbers');
  return seeds;
}

function typed(key: string, value: string): unknown {
  const f = fieldByKey.get(key);
  return f ? parseFieldText(f, value) : value;
}

/** The setup a sweep varies: its layers as the setup panel holds them (core/resolve.ts). */
export interface SweepSetup {
  preset: string | null;
  edits: Partial<Config>;
  base: BaseLayer | null;
  memory?: MemoryBudget;
}

/**
 * Every run of the sweep (axis 1 outermost, seeds innermost), each resolved as the setup is —
 * the cell's values and the seed as edits over the setup's (an algorithm cell sets its
 * switches, as choosing it in the form does); throws on an invalid cell, naming it.
 */
export function planSweep(
  setup: SweepSetup,
  axes: readonly SweepAxis[],
  seeds: readonly number[],
): PlannedRun[] {
  if (axes.length > 2) throw new Error('at most two axes');
  const cells: Record<string, string>[] = [{}];
  for (const axis of axes) {
    const next: Record<string, string>[] = [];
    for (const c of cells) for (const v of axis.values) next.push({ ...c, [axis.key]: v });
    cells.splice(0, cells.length, ...next);
  }
  const total = cells.length * seeds.length;
  if (total > MAX_SWEEP_RUNS) throw new Error(`${total} runs: at most ${MAX_SWEEP_RUNS} in the browser`);
  const switches = Object.keys(ALGORITHMS['starpo-ppo'].switches);
  const runs: PlannedRun[] = [];
  for (const cell of cells) {
    const preset =
      Object.entries(cell)
        .filter(([k]) => k !== 'algorithm')
        .map(([k, v]) => `${k}=${v}`)
        .join(',') || 'custom';
    const own = Object.fromEntries(Object.entries(cell).map(([k, v]) => [k, typed(k, v)]));
    const kept = cell.algorithm
      ? Object.fromEntries(Object.entries(setup.edits).filter(([k]) => !switches.includes(k)))
      : setup.edits;
    for (const seed of seeds) {
      const r = resolveConfig(
        { base: setup.base, preset: setup.preset, edits: { ...kept, ...own, seed } as Partial<Config> },
        undefined,
        setup.memory,
      );
      if (r.errors.length > 0)
        throw new Error(
          `${preset} seed ${seed}: ${r.errors.map((e: FieldError) => `${e.field} ${e.message}`).join('; ')}`,
        );
      runs.push({
        path: runPath(preset, r.values.algorithm, seed),
        preset,
        algo: r.values.algorithm,
        seed,
        config: r.values,
      });
    }
  }
  return runs;
}
