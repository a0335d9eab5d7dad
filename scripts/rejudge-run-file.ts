// Judges a stored run file (the playground's export format, e.g. the tour's recordings in
// public/recorded/) again with today's echo-trap detector: its echo events and meta.summary are
// replaced by those of core/metrics/detector.ts detectRun over the file's own metric rows, with
// the file's config completed by today's defaults for fields added since. Rows, samples, other
// events, the config as written and the checkpoint are kept byte for byte; nothing is trained.
// The result must still parse as a run file, or nothing is written.
// Run: npx tsx scripts/rejudge-run-file.ts public/recorded/echo-trap-starpo.json [more files]
import { readFile, writeFile } from 'node:fs/promises';
import { completeStoredConfig } from '../src/cli/sweepRunner.js';
import type { Config } from '../src/core/config.js';
import { parseFile } from '../src/core/files/runFile.js';
import { detectRun } from '../src/core/metrics/detector.js';
import type { MetricRow } from '../src/core/metrics/keys.js';

interface RawRunFile {
  meta: { config: Record<string, unknown>; summary: unknown };
  rows: MetricRow[];
  events: { type: string; iteration: number }[];
  [k: string]: unknown;
}

/**
 * The run file's JSON with its echo events and summary from today's detector; the events stay
 * in iteration order, a non-echo event before the detector's events of the same iteration.
 */
function rejudged(file: RawRunFile): RawRunFile {
  const config = completeStoredConfig(file.meta.config) as unknown as Config;
  const d = detectRun(config, file.rows);
  const others = file.events.filter((e) => e.type !== 'echo');
  const echoes = d.events.map((e) => ({ type: 'echo', ...e }));
  const events = [...others, ...echoes].sort((a, b) => a.iteration - b.iteration);
  return { ...file, meta: { ...file.meta, summary: d.summary() }, events };
}

async function main(paths: readonly string[]): Promise<void> {
  if (paths.length === 0) throw new Error('usage: npx tsx scripts/rejudge-run-file.ts <run file.json>...');
  for (const path of paths) {
    const before = JSON.parse(await readFile(path, 'utf8')) as RawRunFile;
    const after = rejudged(before);
    const text = JSON.stringify(after);
    const check = parseFile(text);
    if (!check.ok || check.kind !== 'run') throw new Error(`${path}: the re-judged file does not parse`);
    await writeFile(path, text);
    const s = after.meta.summary as { echoTrap: boolean; collapseIteration: number | null };
    const was = before.meta.summary as { echoTrap: boolean; collapseIteration: number | null } | null;
    const verdict = (x: typeof s | null) =>
      x ? (x.echoTrap ? `echo trap at ${x.collapseIteration}` : 'no echo trap') : 'no summary';
    process.stdout.write(`${path}: ${verdict(was)} -> ${verdict(s)}\n`);
  }
}

await main(process.argv.slice(2));
