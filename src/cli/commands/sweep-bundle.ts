// `npm run starpo -- sweep-bundle --dir <sweep dir> --out sweep.json`: packs a CLI sweep
// directory (table.json plus <preset>/<algo>/seed-<s>/{config.json, metrics.jsonl,
// events.jsonl, summary.json}, as `starpo sweep` writes it; the records plain or gzip'd) into one
// JSON bundle that the playground's Sweeps dialog imports (src/core/files/sweepBundle.ts defines
// the format). Runs listed in table.json but missing their files are an error naming the directory.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateConfig } from '../../core/config.js';
import {
  makeBundle,
  type RunSummaryFile,
  runPath,
  type SweepRunFiles,
} from '../../core/files/sweepBundle.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import type { TrainerEvent } from '../../core/rl/trainer.js';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';
import { readRecordRows } from '../runRecords.js';

const FLAGS: FlagSpec[] = [
  { name: 'dir', kind: 'string', help: 'the sweep directory (what `starpo sweep --out` wrote)' },
  { name: 'out', kind: 'string', help: 'the bundle file to write (.json)' },
  { name: 'name', kind: 'string', help: 'the sweep’s name in the playground (default: the directory name)' },
];

/** Reads a CLI sweep directory into its runs, in table.json's order. */
export async function readSweepDir(dir: string): Promise<SweepRunFiles[]> {
  let table: { runs?: { preset: string; algo: string; seed: number }[] };
  try {
    table = JSON.parse(await readFile(join(dir, 'table.json'), 'utf8'));
  } catch (err) {
    throw new UsageError(`--dir: cannot read ${join(dir, 'table.json')}: ${(err as Error).message}`);
  }
  if (!Array.isArray(table.runs)) throw new UsageError(`${join(dir, 'table.json')} has no "runs" list`);
  const runs: SweepRunFiles[] = [];
  for (const entry of table.runs) {
    const path = runPath(entry.preset, entry.algo, entry.seed);
    const read = (f: string) => readFile(join(dir, path, f), 'utf8');
    try {
      const cfg = validateConfig(JSON.parse(await read('config.json')));
      if (!cfg.ok)
        throw new Error(`config.json: ${cfg.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`);
      runs.push({
        path,
        preset: entry.preset,
        algo: entry.algo,
        seed: entry.seed,
        config: cfg.config,
        metrics: await readRecordRows<MetricRow>(join(dir, path), 'metrics.jsonl'),
        events: await readRecordRows<TrainerEvent>(join(dir, path), 'events.jsonl'),
        summary: JSON.parse(await read('summary.json')) as RunSummaryFile,
      });
    } catch (err) {
      throw new Error(`${join(dir, path)}: ${(err as Error).message}`);
    }
  }
  return runs;
}

export const sweepBundleCommand: Command = {
  name: 'sweep-bundle',
  summary: 'pack a sweep directory into one JSON file the playground imports',
  usage: `usage: npm run starpo -- sweep-bundle --dir <sweep dir> --out <file.json>\n\n${flagHelp(FLAGS)}`,
  async run(args, io) {
    const flags = parseFlags(args, FLAGS);
    if (typeof flags.dir !== 'string' || flags.dir === '')
      throw new UsageError('--dir <sweep dir> is required');
    if (typeof flags.out !== 'string' || flags.out === '')
      throw new UsageError('--out <file.json> is required');
    const runs = await readSweepDir(flags.dir);
    const name =
      typeof flags.name === 'string' ? flags.name : flags.dir.replace(/\/+$/, '').split('/').pop() || 'sweep';
    await writeFile(flags.out, JSON.stringify(makeBundle(name, runs)));
    io.stderr.write(`sweep-bundle: ${runs.length} runs → ${flags.out}\n`);
    return 0;
  },
};
