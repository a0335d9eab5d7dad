// A run directory's records (metrics.jsonl, events.jsonl) as the command line stores them: a run
// in progress appends to the plain file; a finished run's record is kept compressed beside it
// (`X.jsonl.br`, brotli, written by `starpo results compress`; older runs may hold `X.jsonl.gz`,
// gzip, the form before it), so that results/ holds code-sized text. Every Node reader of a record
// goes through here and sees the same text in every form. The page and IndexedDB never read these
// files.
import { access, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { parseJsonl } from '../core/files/cliRun.js';

/** The records a run directory holds, by their plain names. */
export const RECORDS = ['metrics.jsonl', 'events.jsonl'] as const;
export type RecordName = (typeof RECORDS)[number];

/** The suffix of a record stored by `results compress` (brotli). */
export const BR = '.br';
/** The suffix of a record stored gzip'd, the form `results compress` wrote before brotli. */
export const GZ = '.gz';

/** A record's stored forms in the order a reader takes them: the plain file (a run in progress
 *  appends there, so it is the newest), then brotli, then gzip. */
const FORMS: readonly { suffix: string; decode: (bytes: Buffer) => Buffer }[] = [
  { suffix: '', decode: (b) => b },
  { suffix: BR, decode: (b) => brotliDecompressSync(b) },
  { suffix: GZ, decode: (b) => gunzipSync(b) },
];

/** The names of record `name` compressed (brotli, gzip): what a run started again must remove. */
export const compressedFiles = (name: RecordName): string[] =>
  FORMS.filter((f) => f.suffix !== '').map((f) => name + f.suffix);

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** Whether a file exists (any error reads as no). */
export const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** An error that reads as a missing file to callers that test `code === 'ENOENT'`. */
function missing(path: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`no ${path} (nor ${path}${BR}, nor ${path}${GZ})`);
  err.code = 'ENOENT';
  err.path = path;
  return err;
}

/** The bytes of record `name` in `dir` from the first form that exists (FORMS), or null. */
async function recordBytes(dir: string, name: RecordName): Promise<{ bytes: Buffer; suffix: string } | null> {
  const path = join(dir, name);
  for (const form of FORMS) {
    let stored: Buffer;
    try {
      stored = await readFile(path + form.suffix);
    } catch (err) {
      if (isMissing(err)) continue;
      throw err;
    }
    return { bytes: form.decode(stored), suffix: form.suffix };
  }
  return null;
}

/**
 * The text of record `name` in `dir`: the plain file when it exists, else the brotli one, else
 * the gzip'd one. Throws an ENOENT error naming the path when none exists.
 */
export async function readRecord(dir: string, name: RecordName): Promise<string> {
  const r = await recordBytes(dir, name);
  if (!r) throw missing(join(dir, name));
  return r.bytes.toString('utf8');
}

/** The parsed lines of record `name` in `dir` (blank lines skipped), in any stored form. */
export async function readRecordRows<T>(dir: string, name: RecordName): Promise<T[]> {
  return parseJsonl<T>(await readRecord(dir, name));
}

/**
 * The suffix of the form a reader takes record `name` in `dir` from ('' plain, BR, GZ), or null
 * when there is none (without reading it).
 */
export async function recordForm(dir: string, name: RecordName): Promise<string | null> {
  const path = join(dir, name);
  for (const form of FORMS) if (await exists(path + form.suffix)) return form.suffix;
  return null;
}

/** Whether `dir` holds record `name` in any stored form (without reading it). */
export async function hasRecord(dir: string, name: RecordName): Promise<boolean> {
  return (await recordForm(dir, name)) !== null;
}

/**
 * The brotli of a record's bytes at the densest setting (quality 11). Brotli has no header
 * fields that vary, so the same bytes give the same file on every run and a recompressed record
 * shows no diff.
 */
export const brotliRecord = (bytes: Buffer): Buffer =>
  brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });

/** What storing one record did: its text's size, its stored size, and the form it came from. */
export interface Stored {
  plain: number;
  stored: number;
  /** '' when the record was plain, GZ when it was re-stored from gzip. */
  from: string;
}

/**
 * Stores record `name` in `dir` as brotli, from its plain file or, when there is none, its gzip:
 * written beside it under a temporary name, read back and decompressed, and only if that gives
 * the record's bytes renamed into place and the other forms deleted. Returns the sizes, or
 * null when the record is already brotli or absent.
 */
export async function compressRecord(dir: string, name: RecordName): Promise<Stored | null> {
  const form = await recordForm(dir, name);
  if (form === null || form === BR) return null;
  const r = await recordBytes(dir, name);
  if (!r) return null;
  const path = join(dir, name);
  const tmp = `${path}${BR}.tmp`;
  const br = brotliRecord(r.bytes);
  await writeFile(tmp, br);
  const back = brotliDecompressSync(await readFile(tmp));
  if (!back.equals(r.bytes)) {
    await unlink(tmp);
    throw new Error(`${path}${r.suffix}: its brotli does not read back to the same bytes; left as it was`);
  }
  await rename(tmp, path + BR);
  // The form it came from, and any older form beside it, would only shadow or repeat it.
  for (const form of FORMS) if (form.suffix !== BR) await rm(path + form.suffix, { force: true });
  return { plain: r.bytes.length, stored: br.length, from: r.suffix };
}
