// Oversized CLI input is refused before any work, with the limit stated (docs/security.md,
// "Input"): a config file over MAX_CONFIG_FILE_BYTES (checked by size, before reading), rollout counts over their
// caps, and a JSON Lines line over MAX_LINE_CHARS (answered with an error line while the next
// line is still served).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webshopSearchCommand } from '../cli/commands/webshop-search.js';
import { MAX_LINE_CHARS } from '../cli/jsonl.js';
import { runCommand } from '../cli/testing.js';
import { resolveTrainConfig } from '../cli/trainConfig.js';
import { MAX_CONFIG_FILE_BYTES } from '../core/config.js';

const noBase = async () => null;

describe('oversized CLI input', () => {
  it('refuses a config file over the size limit, or one that is not a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-in-'));
    const big = join(dir, 'big.json');
    await writeFile(big, `{"seed": 1${' '.repeat(MAX_CONFIG_FILE_BYTES)}}`);
    await expect(resolveTrainConfig({ config: big }, noBase)).rejects.toThrow(
      `--config: must be a file of at most ${MAX_CONFIG_FILE_BYTES} bytes`,
    );
    await expect(resolveTrainConfig({ config: dir }, noBase)).rejects.toThrow(/must be a file of at most/);
    await expect(resolveTrainConfig({ config: join(dir, 'none.json') }, noBase)).rejects.toThrow(
      /--config: cannot read .*none\.json/,
    );
    const ok = join(dir, 'ok.json');
    await writeFile(ok, '{"seed": 5}');
    expect((await resolveTrainConfig({ config: ok }, noBase)).seed).toBe(5);
  });

  it('refuses iterations and rollouts over their caps, naming the flag and the limit', async () => {
    await expect(resolveTrainConfig({ iters: '100001' }, noBase)).rejects.toThrow(
      '--iters: must be at most 100000 (allowed 1–100000)',
    );
    await expect(resolveTrainConfig({ groups: '128', 'group-size': '64' }, noBase)).rejects.toThrow(
      '--groups: 8192 rollouts per iteration (P × N); the limit is 4096: lower groups or group size',
    );
    await expect(resolveTrainConfig({ seed: '1e400' }, noBase)).rejects.toThrow(
      '--seed: "1e400" is not a number',
    );
  });

  it('answers a line over MAX_LINE_CHARS with an error and serves the next one', async () => {
    const huge = `{"id": "big", "query": "${'a'.repeat(MAX_LINE_CHARS)}"}`;
    const next = JSON.stringify({ id: 'n', catalog: [], query: 'tea', k: 3 });
    const r = await runCommand(webshopSearchCommand, [], `${huge}\n${next}\n`);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { id: null, error: `line 1 is longer than ${MAX_LINE_CHARS} characters` },
      { id: 'n', asins: [] },
    ]);
  });
});
