// The file version chain: older files go through every step in order, the input is left as it
// was, and files without a usable version or from a newer playground are refused with a message
// naming the versions — also through parseFile, for run and checkpoint files alike.
import { describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../config.js';
import { type FileStep, migrateFile, migrateRunFile, RUN_FILE_VERSION } from './fileVersions.js';
import { checkpointToFile, parseFile, type RunData, runToFile } from './runFile.js';

const run: RunData = {
  meta: {
    id: 'r1',
    name: 'tiny',
    createdAt: 1,
    updatedAt: 2,
    status: 'stopped',
    config: defaultConfig(),
    iteration: 2,
    summary: null,
    base: { id: 'fresh', label: 'untrained nano', untrained: true },
    backend: 'wasm',
    hasCheckpoint: false,
    schemaVersion: 2,
  },
  rows: [
    { iteration: 0, 'rollout/successRate': 0.25 },
    { iteration: 1, 'rollout/successRate': 0.75 },
  ],
  events: [],
  samples: [],
  checkpoint: null,
};

// A made-up history: version 2 renamed `rows` to `series`, version 3 added a count of them.
const renameRows: FileStep = {
  from: 1,
  run: ({ rows, ...rest }) => ({ ...rest, series: rows }),
};
const countSeries: FileStep = {
  from: 2,
  run: (f) => ({ ...f, count: (f.series as unknown[]).length }),
};

describe('file version chain', () => {
  it('runs every step from the file version up, in order, without changing the input', () => {
    const v1 = { format: 'x', version: 1, rows: [1, 2, 3] };
    const before = structuredClone(v1);
    // Listed out of order: the chain goes by `from`, and step 2 needs step 1's `series`.
    const r = migrateFile(v1, 3, [countSeries, renameRows]);
    expect(r).toEqual({ ok: true, file: { format: 'x', version: 3, series: [1, 2, 3], count: 3 } });
    expect(v1).toEqual(before);
  });

  it('runs only the steps a file needs', () => {
    const first = vi.fn(renameRows.run);
    const second = vi.fn(countSeries.run);
    const steps = [
      { from: 1, run: first },
      { from: 2, run: second },
    ];
    expect(migrateFile({ version: 2, series: [7] }, 3, steps)).toEqual({
      ok: true,
      file: { version: 3, series: [7], count: 1 },
    });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    expect(migrateFile({ version: 3, series: [] }, 3, steps)).toEqual({
      ok: true,
      file: { version: 3, series: [] },
    });
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('refuses newer, unversioned and malformed versions, and a gap in the chain', () => {
    expect(migrateFile({ version: 4 }, 3, [renameRows, countSeries], 'run file')).toEqual({
      ok: false,
      message: 'this run file was made by a newer playground (version 4); this one reads up to 3',
    });
    expect(migrateFile({ format: 'x' }, 3, [], 'run file')).toEqual({
      ok: false,
      message: 'the run file has no version (every run file records one)',
    });
    for (const bad of [0, -1, 1.5, '1', null]) {
      const r = migrateFile({ version: bad }, 3, [renameRows, countSeries]);
      expect(!r.ok && r.message).toBe(
        `the file's version is ${JSON.stringify(bad)}; versions are whole numbers from 1`,
      );
    }
    expect(migrateFile([1], 3, []).ok).toBe(false);
    const gap = migrateFile({ version: 1, rows: [] }, 3, [renameRows]);
    expect(!gap.ok && gap.message).toMatch(/no upgrade for a file of version 2/);
  });
});

describe('run and checkpoint files', () => {
  it('reads a current run file as it is, without the stored schemaVersion', () => {
    const file = JSON.parse(runToFile(run));
    expect(file.version).toBe(RUN_FILE_VERSION);
    expect(file.meta).not.toHaveProperty('schemaVersion');
    expect(migrateRunFile(file)).toEqual({ ok: true, file });
  });

  it('refuses run and checkpoint files from a newer playground, naming both versions', () => {
    const newer = { ...JSON.parse(runToFile(run)), version: RUN_FILE_VERSION + 1 };
    expect(parseFile(JSON.stringify(newer))).toEqual({
      ok: false,
      message: `this run file was made by a newer playground (version ${RUN_FILE_VERSION + 1}); this one reads up to ${RUN_FILE_VERSION}`,
    });
    const cp = JSON.parse(
      checkpointToFile('agent', {
        manifest: { format: 'starpo-checkpoint' },
        blob: new Uint8Array(4),
        iteration: 1,
      }),
    );
    expect(parseFile(JSON.stringify(cp)).ok).toBe(true);
    const r = parseFile(JSON.stringify({ ...cp, version: 9 }));
    expect(!r.ok && r.message).toBe(
      'this checkpoint file was made by a newer playground (version 9); this one reads up to 1',
    );
    const { version: _v, ...unversioned } = JSON.parse(runToFile(run));
    const u = parseFile(JSON.stringify(unversioned));
    expect(!u.ok && u.message).toMatch(/has no version/);
  });
});
