// The record reader sees the same text whether a record is plain or gzip'd, prefers the plain
// file (a run in progress appends there), and names the path when neither exists; compressing a
// record keeps its bytes and gives the same gzip every time.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRecord, gzipRecord, hasRecord, readRecord, readRecordRows } from './runRecords.js';

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

  it('prefers the plain record over a gzip’d one beside it', async () => {
    await writeFile(join(dir, 'events.jsonl.gz'), gzipSync('{"type":"old","iteration":0}\n'));
    await writeFile(join(dir, 'events.jsonl'), '{"type":"new","iteration":0}\n');
    expect(await readRecordRows(dir, 'events.jsonl')).toEqual([{ type: 'new', iteration: 0 }]);
  });

  it('names the path when neither form exists, as a missing file', async () => {
    const err = await readRecord(dir, 'metrics.jsonl').catch((e: NodeJS.ErrnoException) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect((err as Error).message).toBe(
      `no ${join(dir, 'metrics.jsonl')} (nor ${join(dir, 'metrics.jsonl')}.gz)`,
    );
    expect(await hasRecord(dir, 'metrics.jsonl')).toBe(false);
  });
});

describe('compressRecord', () => {
  it('replaces the plain record by a gzip of the same bytes, the same gzip every time', async () => {
    await writeFile(join(dir, 'metrics.jsonl'), ROWS);
    expect(await compressRecord(dir, 'metrics.jsonl')).toEqual({
      plain: Buffer.byteLength(ROWS),
      gz: gzipRecord(Buffer.from(ROWS)).length,
    });
    await expect(readFile(join(dir, 'metrics.jsonl'))).rejects.toThrow(/ENOENT/);
    const gz = await readFile(join(dir, 'metrics.jsonl.gz'));
    expect(gunzipSync(gz).toString('utf8')).toBe(ROWS);
    expect(gz.equals(gzipRecord(Buffer.from(ROWS)))).toBe(true);
    expect(gz.readUInt32LE(4)).toBe(0); // no mtime in the header: byte-stable
    expect(await readRecord(dir, 'metrics.jsonl')).toBe(ROWS);
  });

  it('does nothing without a plain record', async () => {
    expect(await compressRecord(dir, 'events.jsonl')).toBeNull();
  });
});
