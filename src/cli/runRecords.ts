// A run directory's records (metrics.jsonl, events.jsonl) as the command line stores them: a run
// in progress appends to the plain file; a finished run's record may be kept gzip'd beside it
// (`X.jsonl.gz`, written by `starpo results compress`), so that results/ holds code-sized text.
// Every Node reader of a record goes through here and sees the same text either way. The page
// and IndexedDB never read these files.
import { access, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parseJsonl } from '../core/files/cliRun.js';

/** The records a run directory holds, by their plain names. */
export const RECORDS = ['metrics.jsonl', 'events.jsonl'] as const;
export type RecordName = (typeof RECORDS)[number];

/** The suffix of a compressed record. */
export const GZ = '.gz';

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** Whether a file exists (any error reads as no). */
export const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** An error that reads as a missing file to callers that test `code === 'ENOENT'`. */
function missing(path: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`no ${path} (nor ${path}${GZ})`);
  err.code = 'ENOENT';
  err.path = path;
  return err;
}

/**
 * The text of record `name` in `dir`: the plain file when it exists (a run in progress appends
 * there, so it is the newer one), else the gzip'd one. Throws an ENOENT error naming the path
 * when neither exists.
 */
export async function readRecord(dir: string, name: RecordName): Promise<string> {
  const path = join(dir, name);
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  try {
    return gunzipSync(await readFile(path + GZ)).toString('utf8');
  } catch (err) {
    throw isMissing(err) ? missing(path) : err;
  }
}

/** The parsed lines of record `name` in `dir` (blank lines skipped), plain or gzip'd. */
export async function readRecordRows<T>(dir: string, name: RecordName): Promise<T[]> {
  return parseJsonl<T>(await readRecord(dir, name));
}

/** Whether `dir` holds record `name`, plain or gzip'd (without reading it). */
export async function hasRecord(dir: string, name: RecordName): Promise<boolean> {
  const path = join(dir, name);
  return (await exists(path)) || (await exists(path + GZ));
}

/**
 * The gzip of a record's bytes. Level 9 and Node's header (mtime 0, no file name) make the same
 * bytes give the same file on every run, so a recompressed record shows no diff.
 */
export const gzipRecord = (bytes: Buffer): Buffer => gzipSync(bytes, { level: 9 });

/**
 * Replaces the plain record `name` in `dir` by its gzip: written beside it under a temporary
 * name, read back and gunzipped, and only if that gives the original bytes renamed into place and
 * the plain file deleted. Returns the plain and gzip'd sizes, or null when there is no plain file.
 */
export async function compressRecord(
  dir: string,
  name: RecordName,
): Promise<{ plain: number; gz: number } | null> {
  const path = join(dir, name);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
  const tmp = `${path}${GZ}.tmp`;
  await writeFile(tmp, gzipRecord(bytes));
  const back = gunzipSync(await readFile(tmp));
  if (!back.equals(bytes)) {
    await unlink(tmp);
    throw new Error(`${path}: its gzip does not read back to the same bytes; left as it was`);
  }
  await rename(tmp, path + GZ);
  await unlink(path);
  return { plain: bytes.length, gz: (await readFile(path + GZ)).length };
}
