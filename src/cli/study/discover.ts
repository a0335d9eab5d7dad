// The runs already in a study's results directory (results/echo-trap/<env>/<variant>/<algo>/
// seed-<n>), whatever invocation made them: a report written after running one env keeps the
// sections of the envs run before it. Only directories named after a known env are read.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../core/config.js';
import { completeStoredConfig } from '../sweepRunner.js';
import type { StudyRun } from './analyze.js';

/** An env id's directory name under the results directory. */
export const envSlug = (env: string) => env.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();

async function subdirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** A found run with the config its directory was started with (config.json, completed with today's defaults for fields added since), if readable. */
export interface FoundRun extends StudyRun {
  config?: Config;
  /** The fields its config.json lacks (added since the run was made), read at today's defaults. */
  added?: string[];
}

/** Every run directory under `out` for the envs in `envs` (in that order). */
export async function discoverRuns(out: string, envs: readonly string[]): Promise<FoundRun[]> {
  const found: FoundRun[] = [];
  for (const env of envs) {
    const envDir = join(out, envSlug(env));
    for (const variant of await subdirs(envDir)) {
      for (const algo of await subdirs(join(envDir, variant))) {
        for (const name of await subdirs(join(envDir, variant, algo))) {
          const m = /^seed-(\d+)$/.exec(name);
          if (!m) continue;
          const dir = join(envDir, variant, algo, name);
          let config: Config | undefined;
          let added: string[] | undefined;
          try {
            const raw = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<
              string,
              unknown
            >;
            // Fields added since the run was made: today's defaults (sweepRunner completeStoredConfig).
            config = completeStoredConfig(raw) as unknown as Config;
            added = Object.keys(config).filter((k) => !(k in raw));
          } catch {
            config = undefined; // started but never configured: no bands from it
          }
          found.push({ env, variant, algo, seed: Number(m[1]), dir, config, added });
        }
      }
    }
  }
  return found;
}
