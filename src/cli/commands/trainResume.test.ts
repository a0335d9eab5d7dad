// `train` keeps every run: an --out that holds one is refused unless told, --force starts again,
// and --resume continues from the last checkpoint and writes the rows an uninterrupted run writes.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMachineKey, rowWithout } from '../../core/metrics/keys.js';
import { runCommand, TINY_ROLLOUT_FLAGS } from '../testing.js';
import { trainCommand } from './train.js';

/** A GRPO run small enough for a test, with a checkpoint every 2 iterations and measurements at 0, 2, 4. */
const RUN = [
  ...['--base', 'random', '--backend', 'cpu', '--algo', 'starpo-grpo', ...TINY_ROLLOUT_FLAGS],
  ...['--eval-every', '2', '--eval-episodes', '2', '--mi-every', '2', '--mi-samples', '2'],
  ...['--iters', '5', '--checkpoint-every', '2', '--seed', '5', '--quiet'],
];

const lines = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n');
const rows = async (dir: string) =>
  (await lines(join(dir, 'metrics.jsonl'))).map((l) => rowWithout(JSON.parse(l), isMachineKey));

describe('train --out that holds a run', () => {
  it('refuses it unless told, resumes to the same rows, and starts again with --force', async () => {
    const root = await mkdtemp(join(tmpdir(), 'starpo-resume-'));
    try {
      const whole = join(root, 'whole');
      expect((await runCommand(trainCommand, [...RUN, '--out', whole])).code).toBe(0);

      // Again into the same --out: refused, and nothing in it is touched.
      const before = await readFile(join(whole, 'metrics.jsonl'), 'utf8');
      const again = await runCommand(trainCommand, [...RUN, '--out', whole]);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/already holds a finished run: pass --resume .* or --force/);
      expect(await readFile(join(whole, 'metrics.jsonl'), 'utf8')).toBe(before);
      // --resume on a finished run does nothing.
      const done = await runCommand(trainCommand, [...RUN, '--out', whole, '--resume']);
      expect(done.code).toBe(0);
      expect(await readFile(join(whole, 'metrics.jsonl'), 'utf8')).toBe(before);

      // A run stopped after iteration 3 (its checkpoints at 2 and 4 gone with the stop at 3).
      const cut = join(root, 'cut');
      await cp(whole, cut, { recursive: true });
      await writeFile(
        join(cut, 'metrics.jsonl'),
        `${(await lines(join(whole, 'metrics.jsonl'))).slice(0, 3).join('\n')}\n`,
      );
      for (const f of [
        'summary.json',
        'checkpoints/iter-4.json',
        'checkpoints/iter-4.bin',
        'checkpoints/final.json',
      ])
        await rm(join(cut, f), { force: true });
      const refused = await runCommand(trainCommand, [...RUN, '--out', cut]);
      expect(refused.stderr).toMatch(/already holds a run stopped after 3 iteration\(s\)/);
      const other = await runCommand(trainCommand, [...RUN, '--lr', '0.01', '--out', cut, '--resume']);
      expect(other.code).toBe(2);
      expect(other.stderr).toMatch(/has another config \(lr differ\)/);

      const resumed = await runCommand(trainCommand, [...RUN, '--out', cut, '--resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(await rows(cut)).toEqual(await rows(whole));
      const summary = JSON.parse(await readFile(join(cut, 'summary.json'), 'utf8'));
      expect(summary).toMatchObject({ completed: true, iterations: 5, resumedFrom: 2 });

      // --force: the same run again from 0, the same rows.
      const forced = await runCommand(trainCommand, [...RUN, '--out', cut, '--force']);
      expect(forced.code).toBe(0);
      expect(await rows(cut)).toEqual(await rows(whole));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 240_000);
});
