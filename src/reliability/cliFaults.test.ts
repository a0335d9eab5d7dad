// The train command under repeated numerical faults: a base model whose weights are finite but
// so large that every logit overflows (a corrupted or hand-edited checkpoint) makes each
// rollout non-finite. The command must keep the last good weights, stop after three
// iterations in a row with the suggestion, write its files, and exit non-zero.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { trainCommand } from '../cli/commands/train.js';
import { runCommand } from '../cli/testing.js';
import { saveCheckpoint } from '../core/model/checkpoint.js';
import { disposeModel } from '../core/model/params.js';
import { untrainedBase } from '../envs/untrainedBase.js';

describe('train with a base model that overflows', () => {
  it('stops after 3 non-finite iterations with the suggestion and exit 1', async () => {
    await tf.setBackend('cpu');
    const dir = await mkdtemp(join(tmpdir(), 'starpo-fault-'));
    const base = untrainedBase('minigrid/Empty-5x5', 'nano', 128, 1);
    for (const name of ['wte', 'lnf.g']) {
      const w = base.policy.weights[name]!;
      w.assign(tf.tidy(() => w.mul(1e20)));
    }
    const saved = await saveCheckpoint({ policy: base.policy, tokenizer: base.tokenizer });
    disposeModel(base.policy);
    await writeFile(join(dir, 'base.json'), JSON.stringify(saved.manifest));
    await writeFile(join(dir, 'base.bin'), saved.blob);
    const out = join(dir, 'run');
    const r = await runCommand(trainCommand, [
      ...['--env', 'minigrid/Empty-5x5', '--algo', 'starpo-grpo', '--iters', '10', '--lr', '0.01'],
      ...['--base', join(dir, 'base.json'), '--backend', 'cpu', '--groups', '1', '--group-size', '2'],
      ...['--max-turns', '1', '--max-tokens', '4', '--context', '128', '--eval-every', '0'],
      ...['--mi-every', '0', '--checkpoint-every', '0', '--quiet', '--out', out],
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /paused after 3 non-finite iterations in a row .*logits are not finite.*: lower the learning rate \(now 0\.01\) to 0\.003/,
    );
    const events = (await readFile(join(out, 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => [e.type, e.consecutive, e.pause ?? false])).toEqual([
      ['error', 1, false],
      ['error', 2, false],
      ['error', 3, true],
    ]);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ iterations: 3, completed: false });
    expect(summary.fault).toMatch(/lower the learning rate/);
    // The final checkpoint holds the last good (here: the base) weights.
    const final = await readFile(join(out, 'checkpoints', 'final.bin'));
    expect(Buffer.compare(final, Buffer.from(saved.blob))).toBe(0);
  });
});
