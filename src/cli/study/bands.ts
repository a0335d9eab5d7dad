// The study's reference-band file for the playground (public/study/echo-trap.json by default):
// for each env, StarPO and StarPO-S in the steps-matched variant, the mean and min–max band over
// seeds of the charts' first metrics, thinned to ≤ 200 points, with the runs' shared config.
// Built and checked with core/metrics/studyBands.ts, the schema the playground reads it with.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Config } from '../../core/config.js';
import {
  type AlgoBands,
  algoBands,
  BAND_FAMILIES,
  parseStudyBands,
  STUDY_BANDS_FORMAT,
  type StudyBands,
} from '../../core/metrics/studyBands.js';
import type { LoadedRun } from './analyze.js';

/** The variant whose runs make the bands (optimizer steps matched). */
export const BAND_VARIANT = 'matched';

/** The band file of finished runs; `configOf` gives a run's config (by its directory). */
export function studyBandsOf(
  study: string,
  envs: readonly string[],
  loaded: readonly LoadedRun[],
  configOf: (dir: string) => Config | undefined,
): StudyBands {
  const out: StudyBands = { format: STUDY_BANDS_FORMAT, version: 1, study, envs: {} };
  for (const env of envs) {
    const perAlgo: Record<string, AlgoBands> = {};
    for (const { algo } of BAND_FAMILIES) {
      const runs = loaded.filter((r) => r.env === env && r.variant === BAND_VARIANT && r.algo === algo);
      const config = runs.map((r) => configOf(r.dir)).find((c) => c !== undefined);
      if (runs.length === 0 || !config) continue;
      const entry = algoBands(
        runs.map((r) => r.rows),
        config,
        BAND_VARIANT,
      );
      if (Object.keys(entry.metrics).length > 0) perAlgo[algo] = entry;
    }
    if (Object.keys(perAlgo).length > 0) out.envs[env] = perAlgo;
  }
  // The writer holds itself to the reader's schema: a file the playground would refuse is not written.
  return parseStudyBands(out);
}

/** Writes the band file (compact JSON); returns its size in bytes. */
export async function writeStudyBands(file: string, bands: StudyBands): Promise<number> {
  const text = `${JSON.stringify(bands)}\n`;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  return Buffer.byteLength(text);
}
