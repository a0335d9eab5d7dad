// `npm run starpo -- results rerun <run dir> [--iters N]`: trains the stored run's first N
// iterations again (default 30) from its config.json — the same base model, seed and backend,
// serial schedule — and compares every metric row with the stored one, key by key, all but the
// machine's (timings, throughputs, memory: keys.ts isMachineKey). What a change that claims
// "same numbers" (a speedup, a refactor) must pass on stored runs before it says so; exit 1
// and the first differing keys when a row differs.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Config, completeConfig, formatErrors } from '../../core/config.js';
import { isMachineKey, type MetricRow } from '../../core/metrics/keys.js';
import { disposeModel } from '../../core/model/params.js';
import { RunSession } from '../../core/rl/runSession.js';
import { inProcessPools } from '../../envs/pools.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { loadBase } from '../../workers/node/baseModel.js';
import { UsageError } from '../command.js';
import { readRecordRows } from '../runRecords.js';

/** How one rerun compared: rows compared, and per differing row its first differing keys. */
export interface RerunTally {
  dir: string;
  rows: number;
  differ: { iteration: number; keys: string[] }[];
  /** Keys the fresh rows log that the stored ones lack (metrics added since). */
  added: string[];
}

/**
 * The keys of the stored row (not the machine's) whose values the fresh row does not repeat,
 * a key it lacks included. Keys only the fresh row has are metrics added since the run was made
 * (addedKeys), not a difference in its numbers.
 */
export function rowDifference(stored: MetricRow, fresh: MetricRow): string[] {
  const [a, b] = [stored as Record<string, unknown>, fresh as Record<string, unknown>];
  return Object.keys(a)
    .filter((k) => !isMachineKey(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .sort();
}

/** The keys (not the machine's) of the fresh row that the stored row lacks. */
export function addedKeys(stored: MetricRow, fresh: MetricRow): string[] {
  return Object.keys(fresh)
    .filter((k) => !isMachineKey(k) && !(k in stored))
    .sort();
}

/** Reruns the first `n` iterations of the run in `dir` and compares their rows with the stored ones. */
export async function rerunRows(dir: string, n: number, log: (line: string) => void): Promise<RerunTally> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
  } catch (err) {
    throw new UsageError(`results rerun: cannot read ${join(dir, 'config.json')}: ${(err as Error).message}`);
  }
  const checked = completeConfig(raw);
  if (!checked.ok)
    throw new UsageError(`results rerun: ${join(dir, 'config.json')}: ${formatErrors(checked.errors)}`);
  const config: Config = checked.config;
  const stored = await readRecordRows<MetricRow>(dir, 'metrics.jsonl');
  const count = Math.min(n, stored.length);
  await setupNodeBackend(config.backend);
  const loaded = await loadBase({
    env: config.env,
    size: config.modelSize,
    context: config.contextLength,
    seed: config.seed,
  });
  const session = new RunSession({ config, base: loaded.base, pools: inProcessPools(config.env) });
  const tally: RerunTally = { dir, rows: 0, differ: [], added: [] };
  const added = new Set<string>();
  try {
    while (session.iteration < count) {
      const row = await session.step();
      const old = stored[tally.rows] as MetricRow;
      const keys = rowDifference(old, row);
      for (const k of addedKeys(old, row)) added.add(k);
      if (keys.length > 0) tally.differ.push({ iteration: row.iteration as number, keys });
      tally.rows++;
      log(
        `results rerun: ${dir}: iteration ${row.iteration} ${keys.length === 0 ? 'same' : `differs in ${keys.slice(0, 6).join(', ')}`}`,
      );
    }
    tally.added = [...added].sort();
  } finally {
    session.dispose();
    disposeModel(loaded.base.policy);
  }
  return tally;
}
