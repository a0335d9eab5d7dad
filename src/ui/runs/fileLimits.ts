// Size limits of the files the playground imports (issue 10): a file over its limit is refused
// from its size alone, before a byte of it is read, with a message naming the limit. The limits
// keep reading and parsing a file (its text is held twice over while JSON.parse runs) within
// what a tab can afford; a sweep bundle holds no weights, so its limit is lower.

/** Largest run or checkpoint file (`*.starpo-run.json`, `*.starpo-checkpoint.json`) imported. */
export const MAX_RUN_FILE_BYTES = 128 * 1024 * 1024;

/** Largest sweep bundle imported in the Sweeps dialog. */
export const MAX_SWEEP_BUNDLE_BYTES = 64 * 1024 * 1024;

/** "128 MiB", "64 KiB", "512 bytes". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Number((n / 1024 / 1024).toFixed(1))} MiB`;
  if (n >= 1024) return `${Number((n / 1024).toFixed(1))} KiB`;
  return `${n} bytes`;
}

/** Why a file is too big to import (naming the limit), or null when it is within it. */
export function sizeRefusal(
  file: { name: string; size: number },
  limit: number,
  what: string,
): string | null {
  if (file.size <= limit) return null;
  return `${file.name} was refused: it is ${formatBytes(file.size)}, over the ${formatBytes(limit)} limit for ${what}`;
}
