// Versions of run and checkpoint files, and the chain that brings an older file up to the version
// this playground reads before it is validated. Every file since the first carries
// `version: 1`; there was never an unversioned format, so a file without a version is refused
// rather than guessed at. A file from a newer playground is refused with a message saying so,
// before anything is stored.
//
// Adding run file version 2: set RUN_FILE_VERSION = 2, append `{ from: 1, run }` to
// RUN_FILE_STEPS (a pure function from a version-1 object to a version-2 one; the chain sets
// `version`), change the zod schema and runToFile in runFile.ts to the new shape, and add a test
// that a version-1 file still imports. Steps are never edited once released.

/** The run file version this playground writes and reads. */
export const RUN_FILE_VERSION = 1;
/** The checkpoint file version this playground writes and reads. */
export const CHECKPOINT_FILE_VERSION = 1;
/** The oldest version of either file there is. */
export const OLDEST_FILE_VERSION = 1;

/** One step of a file chain: turns a version-`from` file into a version-`from + 1` one. */
export interface FileStep {
  from: number;
  run(file: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

/** Run file steps, oldest first (none yet: version 1 is the only run file version). */
export const RUN_FILE_STEPS: readonly FileStep[] = [];
/** Checkpoint file steps, oldest first (none yet). */
export const CHECKPOINT_FILE_STEPS: readonly FileStep[] = [];

export type Migrated = { ok: true; file: Record<string, unknown> } | { ok: false; message: string };

/**
 * Brings a parsed file (any JSON value) up to version `current` through `steps`, in order.
 * Refuses, with a message naming the versions, a file without a whole-number version, one older
 * than any there is, and one newer than `current`. Pure: the input is not changed.
 */
export function migrateFile(
  json: unknown,
  current: number,
  steps: readonly FileStep[],
  what = 'file',
): Migrated {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, message: `the ${what} is not a JSON object` };
  const version = (json as { version?: unknown }).version;
  if (version === undefined)
    return { ok: false, message: `the ${what} has no version (every ${what} records one)` };
  if (typeof version !== 'number' || !Number.isInteger(version) || version < OLDEST_FILE_VERSION)
    return {
      ok: false,
      message: `the ${what}'s version is ${JSON.stringify(version)}; versions are whole numbers from ${OLDEST_FILE_VERSION}`,
    };
  if (version > current)
    return {
      ok: false,
      message: `this ${what} was made by a newer playground (version ${version}); this one reads up to ${current}`,
    };
  let file: Record<string, unknown> = { ...(json as Record<string, unknown>) };
  for (let v = version; v < current; v++) {
    const step = steps.find((s) => s.from === v);
    if (!step) return { ok: false, message: `no upgrade for a ${what} of version ${v} (internal error)` };
    file = { ...step.run(file), version: v + 1 };
  }
  return { ok: true, file };
}

/** A run file at any version → the current one, or a refusal. */
export function migrateRunFile(json: unknown): Migrated {
  return migrateFile(json, RUN_FILE_VERSION, RUN_FILE_STEPS, 'run file');
}

/** A checkpoint file at any version → the current one, or a refusal. */
export function migrateCheckpointFile(json: unknown): Migrated {
  return migrateFile(json, CHECKPOINT_FILE_VERSION, CHECKPOINT_FILE_STEPS, 'checkpoint file');
}
