// The algorithm axis's A/B guard: every registered algorithm, 2 iterations of the tiny side-task
// run on WASM from fixed seeds, writes exactly the metric rows stored in golden/algorithm-rows.json
// (timings, throughput and memory left out). A change meant to keep an algorithm's behaviour —
// a refactor of the estimators, losses or filters — must leave this file as it is; a change meant
// to alter one regenerates it with UPDATE_GOLDEN=1 and says so. Regenerating still asserts: the
// same seeds must write the same rows twice (else no golden file could hold them), the file must
// read back as written, and the output names every algorithm whose rows changed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { ALGORITHM_NAMES } from '../config.js';
import { isMachineKey, type MetricRow, rowWithout } from '../metrics/keys.js';
import { runTiny, tinyConfig } from './tinyRun.fixture.js';

const GOLDEN = join(import.meta.dirname, 'golden', 'algorithm-rows.json');

/** A row without what depends on the machine (time, throughput, memory). */
const steady = (row: MetricRow) => rowWithout(row, isMachineKey);

beforeAll(async () => {
  await setupNodeBackend('wasm');
});

describe('every algorithm writes its golden rows', () => {
  const stored: Record<string, unknown> = existsSync(GOLDEN) ? JSON.parse(readFileSync(GOLDEN, 'utf8')) : {};
  const made: Record<string, unknown> = {};
  // What UPDATE_GOLDEN writes: the stored rows, those of each changed algorithm replaced (an
  // unchanged one keeps its stored text, key order included, so the diff shows only changes).
  const golden: Record<string, unknown> = { ...stored };
  it.each([...ALGORITHM_NAMES])(
    '%s',
    async (algo) => {
      const run = async () => {
        const { rows } = await runTiny(tinyConfig(algo, { iterations: 2, criticWarmup: 0, seed: 7 }));
        return JSON.parse(JSON.stringify(rows.map(steady))) as unknown;
      };
      made[algo] = await run();
      if (process.env.UPDATE_GOLDEN) {
        expect(await run(), `${algo}: the same seeds wrote other rows`).toEqual(made[algo]);
        const changed = !isDeepStrictEqual(made[algo], stored[algo]);
        if (changed) golden[algo] = made[algo];
        // Two-space JSON, as the formatter keeps the file.
        writeFileSync(GOLDEN, `${JSON.stringify(golden, null, 2)}\n`);
        expect(JSON.parse(readFileSync(GOLDEN, 'utf8'))[algo]).toEqual(made[algo]);
        console.log(
          `algorithmRows: UPDATE_GOLDEN — ${algo}: ${changed ? 'golden rows REWRITTEN' : 'unchanged'}`,
        );
      } else {
        expect(stored[algo], `${algo} has no golden rows: run with UPDATE_GOLDEN=1`).toBeDefined();
        expect(made[algo]).toEqual(stored[algo]);
      }
    },
    120_000,
  );
});
