// The contract's public examples (docs/cli-contracts.md), run through the CLI in-process and
// compared with the real upstream outputs (*.expected.jsonl, copied into envs/webshop/golden),
// plus our own option-rule cases derived from goal.py (webshop-reward-goalpy, hand-computed).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCommand, usageErrorOf } from '../testing.js';
import { webshopRewardCommand } from './webshop-reward.js';
import { webshopSearchCommand } from './webshop-search.js';

const golden = (name: string) =>
  readFileSync(new URL(`../../envs/webshop/golden/${name}`, import.meta.url), 'utf8');
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe.each([
  ['webshop-reward', webshopRewardCommand],
  ['webshop-reward-goalpy', webshopRewardCommand],
  ['webshop-search', webshopSearchCommand],
])('%s', (name, command) => {
  it('reproduces the expected outputs of its golden cases', async () => {
    const result = await runCommand(command, [], golden(`${name}.jsonl`));
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual(lines(golden(`${name}.expected.jsonl`)));
  });
});

describe('bad lines', () => {
  it('reward: names the field and goes on', async () => {
    const ok = golden('webshop-reward.jsonl').split('\n')[0] as string;
    const noPrice = JSON.parse(ok);
    delete noPrice.goal.priceUpper;
    const zeroPrice = JSON.parse(ok);
    zeroPrice.goal.priceUpper = 0;
    const badAttr = JSON.parse(ok);
    badAttr.product.attributes = 'tea tree';
    const input = [
      '{not json',
      JSON.stringify(noPrice),
      JSON.stringify(zeroPrice),
      JSON.stringify(badAttr),
      ok,
    ].join('\n');
    const out = lines((await runCommand(webshopRewardCommand, [], input)).stdout);
    expect(out).toHaveLength(5);
    expect(out[0]).toMatchObject({ id: null, error: expect.stringContaining('not valid JSON') });
    expect(out[1]).toEqual({ id: 'wsr-ex-001', error: 'goal.priceUpper must be a number > 0' });
    expect(out[2]).toEqual({ id: 'wsr-ex-001', error: 'goal.priceUpper must be a number > 0' });
    expect(out[3]).toEqual({ id: 'wsr-ex-001', error: 'product.attributes must be an array of strings' });
    expect(out[4]).toMatchObject({ id: 'wsr-ex-001', reward: 1 });
  });

  it('reward: an empty goal attribute list counts 0 of 0', async () => {
    const line = JSON.parse(golden('webshop-reward.jsonl').split('\n')[0] as string);
    line.goal.attributes = [];
    const out = lines((await runCommand(webshopRewardCommand, [], JSON.stringify(line))).stdout);
    // type 1, options 1 of 1, price 1: (0 + 1 + 1) / (0 + 1 + 1)
    expect(out[0]).toEqual({ id: 'wsr-ex-001', reward: 1, rType: 1, numAttr: 0, numOpt: 1, rPrice: 1 });
  });

  it('search: names the catalogue entry at fault', async () => {
    const input = JSON.stringify({ id: 'q', catalog: [{ asin: 'B1', title: 3 }], query: 'x', k: 5 });
    const out = lines((await runCommand(webshopSearchCommand, [], input)).stdout);
    expect(out[0]).toEqual({ id: 'q', error: 'catalog[0].title must be a string' });
  });

  it('refuses arguments', async () => {
    expect(await usageErrorOf(webshopSearchCommand, ['--k', '3'])).toMatch('unexpected argument');
  });
});
