// Import size limits: a run file or sweep bundle over its limit is refused from its size, with
// the limit named, before its text is read; a file at the limit is read.
import { describe, expect, it } from 'vitest';
import { useApp } from '../store/index.js';
import { importBundle } from '../sweeps/bundleImport.js';
import { formatBytes, MAX_RUN_FILE_BYTES, MAX_SWEEP_BUNDLE_BYTES, sizeRefusal } from './fileLimits.js';
import { importFile } from './library.js';

/** A File stand-in that records whether its text was read. */
function fakeFile(name: string, size: number) {
  const f = {
    name,
    size,
    read: false,
    text: async () => {
      f.read = true;
      return 'not json';
    },
  };
  return f;
}

describe('import size limits', () => {
  it('formats sizes and refuses only files over the limit', () => {
    expect(formatBytes(128 * 1024 * 1024)).toBe('128 MiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(12)).toBe('12 bytes');
    expect(sizeRefusal({ name: 'a.json', size: 1024 }, 1024, 'x')).toBeNull();
    expect(sizeRefusal({ name: 'a.json', size: 1025 }, 1024, 'tests')).toBe(
      'a.json was refused: it is 1 KiB, over the 1 KiB limit for tests',
    );
  });

  it('refuses a run file over the limit without reading it', async () => {
    const big = fakeFile('huge.starpo-run.json', MAX_RUN_FILE_BYTES + 1);
    await importFile(big as unknown as File);
    expect(big.read).toBe(false);
    expect(useApp.getState().notice).toEqual({
      kind: 'error',
      text: 'huge.starpo-run.json was refused: it is 128 MiB, over the 128 MiB limit for run and checkpoint files',
    });
    // At the limit the file is read (and refused for its content instead).
    const ok = fakeFile('fits.json', MAX_RUN_FILE_BYTES);
    await importFile(ok as unknown as File);
    expect(ok.read).toBe(true);
    expect(useApp.getState().notice?.text).toMatch(/^fits\.json was refused: not a JSON file/);
  });

  it('refuses a sweep bundle over its limit without reading it', async () => {
    const big = fakeFile('sweep.json', MAX_SWEEP_BUNDLE_BYTES + 10 * 1024 * 1024);
    await importBundle(big as unknown as File);
    expect(big.read).toBe(false);
    expect(useApp.getState().notice?.text).toBe(
      'sweep.json was refused: it is 74 MiB, over the 64 MiB limit for sweep bundles',
    );
  });
});
