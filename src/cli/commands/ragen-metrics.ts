// `npm run -s starpo -- ragen-metrics <run dir> [--out file.jsonl]`: a run's metric rows under
// RAGEN's (verl's) names, one JSON object a line with `step` for the iteration, for the keys that
// log the same quantity there (core/metrics/keys.ts `ragen`, e.g. actor/gradNorm/task →
// actor/grad_norm/task, RAGEN-2's gradient split), so a playground run can sit beside a RAGEN
// run in the same plots. Keys RAGEN has no name for are left out and listed on stderr.
import { writeFile } from 'node:fs/promises';
import { METRICS, type MetricRow } from '../../core/metrics/keys.js';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';
import { readRecordRows } from '../runRecords.js';

const FLAGS: FlagSpec[] = [
  { name: 'out', kind: 'string', help: 'write the rows here instead of standard output' },
];

/** Our key → RAGEN's, for the keys that have one. */
export const RAGEN_METRIC_NAMES: ReadonlyMap<string, string> = new Map(
  METRICS.flatMap((m) => ('ragen' in m && typeof m.ragen === 'string' ? [[m.key, m.ragen] as const] : [])),
);

/** One row under RAGEN's names (its step, the keys with a name), and the keys left out. */
export function ragenRow(row: MetricRow): { row: Record<string, number>; unnamed: string[] } {
  const out: Record<string, number> = { step: row.iteration };
  const unnamed: string[] = [];
  for (const [k, v] of Object.entries(row)) {
    if (k === 'iteration') continue;
    const name = RAGEN_METRIC_NAMES.get(k);
    if (name && typeof v === 'number') out[name] = v;
    else unnamed.push(k);
  }
  return { row: out, unnamed };
}

export const ragenMetricsCommand: Command = {
  name: 'ragen-metrics',
  summary: "a run's metric rows under RAGEN's names (JSON Lines), for the keys it logs too",
  usage: `usage: npm run -s starpo -- ragen-metrics <run dir> [--out file.jsonl]\n\n${flagHelp(FLAGS)}`,
  async run(args, io) {
    const [dir, ...rest] = args;
    if (!dir || dir.startsWith('--')) throw new UsageError('ragen-metrics: give the run directory');
    const flags = parseFlags(rest, FLAGS);
    const rows = await readRecordRows<MetricRow>(dir, 'metrics.jsonl').catch((err: Error) => {
      throw new UsageError(`ragen-metrics: ${err.message}`);
    });
    const mapped = rows.map(ragenRow);
    const text = mapped.map((m) => `${JSON.stringify(m.row)}\n`).join('');
    if (typeof flags.out === 'string') await writeFile(flags.out, text);
    else io.stdout.write(text);
    const unnamed = [...new Set(mapped.flatMap((m) => m.unnamed))].sort();
    if (unnamed.length > 0) io.stderr.write(`ragen-metrics: no RAGEN name for ${unnamed.join(', ')}\n`);
    return 0;
  },
};
