// The config diff of the compare view: only the fields whose values differ between the runs,
// in the order of the field table (core/config.ts FIELDS), each value as the form shows it (the
// algorithm and env by name).
import { type Config, FIELDS } from '../../core/config.js';
import { algorithmName, envName } from '../labels.js';

export interface DiffRow {
  key: string;
  label: string;
  /** One value per run, in the runs' order. */
  values: string[];
}

/** A value as a person reads it: the algorithm's and env's names, other values as they are. */
function shown(key: string, v: unknown): string {
  if (key === 'algorithm') return algorithmName(String(v));
  if (key === 'env') return envName(String(v));
  return String(v);
}

/** Fields whose values are not all equal across `configs` (empty for one run or equal configs). */
export function configDiff(configs: readonly Config[]): DiffRow[] {
  if (configs.length < 2) return [];
  const rows: DiffRow[] = [];
  for (const f of FIELDS) {
    const values = configs.map((c) => c[f.key as keyof Config]);
    if (new Set(values.map((v) => JSON.stringify(v))).size > 1)
      rows.push({ key: f.key, label: f.label, values: values.map((v) => shown(f.key, v)) });
  }
  return rows;
}

/** A differing field's value in a legend: the name alone for the algorithm and env, "Label value" else. */
function legendPart(row: DiffRow, i: number): string {
  const v = row.values[i] ?? '';
  return row.key === 'algorithm' || row.key === 'env' ? v : `${row.label} ${v}`;
}

/**
 * Short legends for runs side by side: the algorithm's name and the seed, then the first two
 * other fields that differ where that alone leaves two runs alike, then "run k" as a last
 * resort. (A stored run's name spells out its whole config: too long for a legend.)
 */
export function runLabels(configs: readonly Config[]): string[] {
  const diff = configDiff(configs);
  const base = configs.map((c) => `${algorithmName(c.algorithm)} · seed ${c.seed}`);
  const extra = diff.filter((d) => d.key !== 'algorithm' && d.key !== 'seed').slice(0, 2);
  const withExtra = base.map((b, i) => [b, ...extra.map((d) => legendPart(d, i))].join(' · '));
  const labels = new Set(base).size === base.length ? base : withExtra;
  return new Set(labels).size === labels.length ? labels : labels.map((l, i) => `${l} · run ${i + 1}`);
}
