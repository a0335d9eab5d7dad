// A user's first CLI run: nothing set but the env, the algorithm and `--iters 1`. Every env of the
// registry with every algorithm, at the shape its base model brings, must be admitted on WASM
// (no memory refusal: the update steps in micro-batches, scoring and the prefill in chunks of
// the rows that fit), and a shape that used to crash the heap must really run.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALGORITHM_NAMES } from '../../core/config.js';
import { BACKEND_MEMORY_BYTES, estimateRunMemory } from '../../core/model/memory.js';
import { envIds } from '../../envs/registry.js';
import { runCommand } from '../testing.js';
import { baseLookup, resolveTrainConfig } from '../trainConfig.js';
import { trainCommand } from './train.js';

describe('a first run at the defaults', () => {
  it('admits every env × algorithm on WASM, its estimate within the budget', async () => {
    const lookup = baseLookup(undefined, undefined);
    const refused: string[] = [];
    for (const env of envIds())
      for (const algo of ALGORITHM_NAMES) {
        try {
          const c = await resolveTrainConfig({ env, algo, iters: '1' }, lookup);
          const base = await lookup(env, c.modelSize);
          const e = estimateRunMemory(c, base?.vocab ?? 512, BACKEND_MEMORY_BYTES.wasm);
          if (e.bytes > BACKEND_MEMORY_BYTES.wasm) refused.push(`${env} ${algo}: estimate ${e.bytes}`);
        } catch (err) {
          refused.push(`${env} ${algo}: ${(err as Error).message}`);
        }
      }
    expect(refused).toEqual([]);
    expect(envIds().length * ALGORITHM_NAMES.length).toBeGreaterThan(50);
  });

  it('runs Sokoban 6×6 with StarPO-S for one iteration (its 160-row update crashed the heap)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'starpo-first-'));
    const r = await runCommand(trainCommand, [
      '--env',
      'sokoban/Sokoban-6x6',
      '--algo',
      'starpo-s',
      '--iters',
      '1',
      '--out',
      out,
      '--quiet',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ completed: true, iterations: 1, backend: 'wasm' });
  }, 300_000);
});
