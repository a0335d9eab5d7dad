// `results compress` stores the records of finished runs only as brotli: a run without
// summary.json, or whose summary counts other iterations than its rows (a run started again over a
// finished one), keeps its plain records; a compressed run reads back row for row; a run stored
// gzip'd earlier is re-stored as brotli; a second pass changes nothing. `results cat` prints a
// record in any form.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
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
  it('stores a finished run’s records as brotli, leaves unfinished ones plain, and reads back the same', async () => {
    const done = await run('cell/seed-1', 2);
    const going = await run('cell/seed-2');
    const restarted = await run('cell/seed-3', 30);
    const r = await runCommand(resultsCommand, ['compress', root]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`skipped ${going}: no summary.json (in progress?)`);
    expect(r.stderr).toContain(
      `skipped ${restarted}: summary.json counts 30 iterations, metrics.jsonl has 2 rows`,
    );
    expect(r.stderr).toContain('1 finished run(s), 2 file(s) (0 from gzip)');
    expect((await readdir(done)).sort()).toEqual([
      'checkpoints',
      'config.json',
      'events.jsonl.br',
      'metrics.jsonl.br',
      'summary.json',
    ]);
    expect(await readRecord(done, 'metrics.jsonl')).toBe(METRICS);
    expect(await readRecord(done, 'events.jsonl')).toBe(EVENTS);
    for (const dir of [going, restarted]) {
      expect(await readFile(join(dir, 'metrics.jsonl'), 'utf8')).toBe(METRICS);
      expect((await readdir(dir)).some((f) => f.endsWith('.br'))).toBe(false);
    }
    const br = await readFile(join(done, 'metrics.jsonl.br'));
    const again = await runCommand(resultsCommand, ['compress', root]);
    expect(again.stderr).toContain('0 finished run(s), 0 file(s)');
    expect((await readFile(join(done, 'metrics.jsonl.br'))).equals(br)).toBe(true);
  });

  it('re-stores a run gzip’d earlier as brotli, row for row', async () => {
    const old = await run('cell/seed-4', 2);
    for (const name of ['metrics.jsonl', 'events.jsonl']) {
      await writeFile(join(old, `${name}.gz`), gzipSync(await readFile(join(old, name)), { level: 9 }));
      await rm(join(old, name));
    }
    const r = await runCommand(resultsCommand, ['compress', old]);
    expect(r.stderr).toContain('1 finished run(s), 2 file(s) (2 from gzip)');
    expect((await readdir(old)).sort()).toEqual([
      'checkpoints',
      'config.json',
      'events.jsonl.br',
      'metrics.jsonl.br',
      'summary.json',
    ]);
    expect(await readRecord(old, 'metrics.jsonl')).toBe(METRICS);
  });
});

describe('results cat', () => {
  it('prints a record’s text plain or stored, metrics by default', async () => {
    const dir = await run('cell/seed-5', 2);
    expect((await runCommand(resultsCommand, ['cat', dir])).stdout).toBe(METRICS);
    await runCommand(resultsCommand, ['compress', dir]);
    expect((await runCommand(resultsCommand, ['cat', dir])).stdout).toBe(METRICS);
    expect((await runCommand(resultsCommand, ['cat', dir, 'events'])).stdout).toBe(EVENTS);
  });

  it('names what is wrong: no record, another word, no folder', async () => {
    const empty = join(root, 'empty');
    await mkdir(empty);
    expect(await usageErrorOf(resultsCommand, ['cat', empty])).toContain(`${empty} holds no metrics.jsonl`);
    expect(await usageErrorOf(resultsCommand, ['cat', empty, 'summary'])).toContain('(got "summary")');
    expect(await usageErrorOf(resultsCommand, ['cat'])).toContain('give one run folder');
  });

  it('refuses a missing folder and a missing action', async () => {
    expect(await usageErrorOf(resultsCommand, ['compress', join(root, 'nope')])).toContain('no folder');
    expect(await usageErrorOf(resultsCommand, ['compress'])).toContain('give the folders');
    expect(await usageErrorOf(resultsCommand, ['zip', root])).toContain('must be compress, cat or rerun');
    expect(await usageErrorOf(resultsCommand, ['toString', root])).toContain('must be compress');
  });
});
