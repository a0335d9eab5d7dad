// The record reader sees the same text whether a record is plain, brotli or gzip'd, prefers the
// plain file (a run in progress appends there), then brotli, and names the path when none exists;
// storing a record as brotli keeps its bytes, gives the same file every time, and re-stores a
// gzip'd record the same way.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  brotliRecord,
  compressedFiles,
  compressRecord,
  hasRecord,
  readRecord,
  readRecordRows,
  recordForm,
} from './runRecords.js';

const ROWS = '{"iteration":0,"rollout/successRate":0.25}\n\n{"iteration":1,"rollout/successRate":0.5}\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'starpo-records-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readRecord', () => {
  it('reads a gzip’d record alone as its text', async () => {
    await writeFile(join(dir, 'metrics.jsonl.gz'), gzipSync(ROWS));
    expect(await readRecord(dir, 'metrics.jsonl')).toBe(ROWS);
    expect(await readRecordRows(dir, 'metrics.jsonl')).toEqual([
      { iteration: 0, 'rollout/successRate': 0.25 },
      { iteration: 1, 'rollout/successRate': 0.5 },
    ]);
    expect(await hasRecord(dir, 'metrics.jsonl')).toBe(true);
  });

  it('reads a brotli record alone as its text', async () => {
    await writeFile(join(dir, 'events.jsonl.br'), brotliRecord(Buffer.from(ROWS)));
    expect(await readRecord(dir, 'events.jsonl')).toBe(ROWS);
    expect(await hasRecord(dir, 'events.jsonl')).toBe(true);
  });

  it('prefers the plain record, then brotli, over the forms beside it', async () => {
    await writeFile(join(dir, 'events.jsonl.gz'), gzipSync('{"type":"gz","iteration":0}\n'));
    await writeFile(join(dir, 'events.jsonl.br'), brotliRecord(Buffer.from('{"type":"br","iteration":0}\n')));
    expect(await readRecordRows(dir, 'events.jsonl')).toEqual([{ type: 'br', iteration: 0 }]);
    await writeFile(join(dir, 'events.jsonl'), '{"type":"plain","iteration":0}\n');
    expect(await readRecordRows(dir, 'events.jsonl')).toEqual([{ type: 'plain', iteration: 0 }]);
  });

  it('names the path when no form exists, as a missing file', async () => {
    const err = await readRecord(dir, 'metrics.jsonl').catch((e: NodeJS.ErrnoException) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOENT');
    const path = join(dir, 'metrics.jsonl');
    expect((err as Error).message).toBe(`no ${path} (nor ${path}.br, nor ${path}.gz)`);
    expect(await hasRecord(dir, 'metrics.jsonl')).toBe(false);
  });

  it('lists a record’s compressed names, and names the form a reader takes', async () => {
    expect(compressedFiles('events.jsonl')).toEqual(['events.jsonl.br', 'events.jsonl.gz']);
    expect(await recordForm(dir, 'events.jsonl')).toBeNull();
    await writeFile(join(dir, 'events.jsonl.gz'), gzipSync(ROWS));
    expect(await recordForm(dir, 'events.jsonl')).toBe('.gz');
    await writeFile(join(dir, 'events.jsonl.br'), brotliRecord(Buffer.from(ROWS)));
    expect(await recordForm(dir, 'events.jsonl')).toBe('.br');
    await writeFile(join(dir, 'events.jsonl'), ROWS);
    expect(await recordForm(dir, 'events.jsonl')).toBe('');
  });
});

describe('compressRecord', () => {
  it('replaces the plain record by a brotli of the same bytes, the same file every time', async () => {
    await writeFile(join(dir, 'metrics.jsonl'), ROWS);
    const br = brotliRecord(Buffer.from(ROWS));
    expect(await compressRecord(dir, 'metrics.jsonl')).toEqual({
      plain: Buffer.byteLength(ROWS),
      stored: br.length,
      from: '',
    });
    expect(await readdir(dir)).toEqual(['metrics.jsonl.br']);
    const stored = await readFile(join(dir, 'metrics.jsonl.br'));
    expect(brotliDecompressSync(stored).toString('utf8')).toBe(ROWS);
    expect(stored.equals(br)).toBe(true);
    expect(stored.equals(brotliRecord(Buffer.from(ROWS)))).toBe(true);
    expect(await readRecord(dir, 'metrics.jsonl')).toBe(ROWS);
  });

  it('re-stores a gzip’d record as brotli and deletes the gzip', async () => {
    await writeFile(join(dir, 'events.jsonl.gz'), gzipSync(ROWS, { level: 9 }));
    expect((await compressRecord(dir, 'events.jsonl'))?.from).toBe('.gz');
    expect(await readdir(dir)).toEqual(['events.jsonl.br']);
    expect(await readRecord(dir, 'events.jsonl')).toBe(ROWS);
  });

  it('does nothing without a record, or with one already brotli', async () => {
    expect(await compressRecord(dir, 'events.jsonl')).toBeNull();
    await writeFile(join(dir, 'events.jsonl.br'), brotliRecord(Buffer.from(ROWS)));
    expect(await compressRecord(dir, 'events.jsonl')).toBeNull();
  });
});
