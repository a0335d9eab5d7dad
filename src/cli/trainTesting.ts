// Runs the real `train` command in-process and reads its metrics, for the learning tests. Apart
// from testing.ts, so the many command and env tests that import that do not load the trainer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trainCommand } from './commands/train.js';
import { readRecordRows } from './runRecords.js';
import { runCommand } from './testing.js';

/**
 * Runs the real `train` command with `args` (and `--out` a fresh directory, removed after) and
 * returns its metrics rows, one per iteration; throws with its stderr when it fails.
 */
export async function trainMetrics(args: string[]): Promise<Record<string, number>[]> {
  const out = await mkdtemp(join(tmpdir(), 'starpo-train-'));
  try {
    const r = await runCommand(trainCommand, [...args, '--out', out]);
    if (r.code !== 0) throw new Error(`train ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return await readRecordRows<Record<string, number>>(out, 'metrics.jsonl');
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
