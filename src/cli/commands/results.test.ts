// `results compress` gzips the records of finished runs only: a run without summary.json, or whose
// summary counts other iterations than its rows (a run started again over a finished one), keeps
// its plain records; a compressed run reads back row for row; a second pass changes nothing.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRecord } from '../runRecords.js';
import { runCommand, usageErrorOf } from '../testing.js';
import { resultsCommand } from './results.js';

const METRICS = '{"iteration":0,"rollout/successRate":0.25}\n{"iteration":1,"rollout/successRate":0.5}\n';
const EVENTS = '{"type":"echo","iteration":1}\n';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'starpo-compress-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A run directory with its records and, when `iterations` is given, a summary.json. */
async function run(path: string, iterations?: number): Promise<string> {
  const dir = join(root, path);
  await mkdir(join(dir, 'checkpoints'), { recursive: true });
  await writeFile(join(dir, 'config.json'), '{}\n');
  await writeFile(join(dir, 'metrics.jsonl'), METRICS);
  await writeFile(join(dir, 'events.jsonl'), EVENTS);
  if (iterations !== undefined) await writeFile(join(dir, 'summary.json'), `{"iterations":${iterations}}\n`);
  return dir;
}

describe('results compress', () => {
  it('gzips a finished run’s records, leaves unfinished ones plain, and reads back the same', async () => {
    const done = await run('cell/seed-1', 2);
    const going = await run('cell/seed-2');
    const restarted = await run('cell/seed-3', 30);
    const r = await runCommand(resultsCommand, ['compress', root]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`skipped ${going}: no summary.json (in progress?)`);
    expect(r.stderr).toContain(
      `skipped ${restarted}: summary.json counts 30 iterations, metrics.jsonl has 2 rows`,
    );
    expect(r.stderr).toContain('1 finished run(s), 2 file(s)');
    expect((await readdir(done)).sort()).toEqual([
      'checkpoints',
      'config.json',
      'events.jsonl.gz',
      'metrics.jsonl.gz',
      'summary.json',
    ]);
    expect(await readRecord(done, 'metrics.jsonl')).toBe(METRICS);
    expect(await readRecord(done, 'events.jsonl')).toBe(EVENTS);
    for (const dir of [going, restarted]) {
      expect(await readFile(join(dir, 'metrics.jsonl'), 'utf8')).toBe(METRICS);
      expect((await readdir(dir)).some((f) => f.endsWith('.gz'))).toBe(false);
    }
    const gz = await readFile(join(done, 'metrics.jsonl.gz'));
    const again = await runCommand(resultsCommand, ['compress', root]);
    expect(again.stderr).toContain('0 finished run(s), 0 file(s)');
    expect((await readFile(join(done, 'metrics.jsonl.gz'))).equals(gz)).toBe(true);
  });

  it('refuses a missing folder and a missing action', async () => {
    expect(await usageErrorOf(resultsCommand, ['compress', join(root, 'nope')])).toContain('no folder');
    expect(await usageErrorOf(resultsCommand, ['compress'])).toContain('give the folders');
    expect(await usageErrorOf(resultsCommand, ['zip', root])).toContain('must be compress');
  });
});
