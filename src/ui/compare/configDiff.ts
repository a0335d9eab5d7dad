// The config diff of the compare view: only the fields whose values differ between the runs,
// in the order of the field table (core/config.ts FIELDS), each value as the form shows it.
import { type Config, FIELDS } from '../../core/config.js';

export interface DiffRow {
  key: string;
  label: string;
  /** One value per run, in the runs' order. */
  values: string[];
}

/** Fields whose values are not all equal across `configs` (empty for one run or equal configs). */
export function configDiff(configs: readonly Config[]): DiffRow[] {
  if (configs.length < 2) return [];
  const rows: DiffRow[] = [];
  for (const f of FIELDS) {
    const values = configs.map((c) => c[f.key as keyof Config]);
    if (new Set(values.map((v) => JSON.stringify(v))).size > 1)
      rows.push({ key: f.key, label: f.label, values: values.map((v) => String(v)) });
  }
  return rows;
}
