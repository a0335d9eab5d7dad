// Fuzz of the contract commands' JSON Lines input (docs/cli-contracts.md): webshop-reward,
// webshop-search and minigrid-replay get the golden input lines mutated (structure-aware and
// byte-level), random JSON and broken text. Every command must exit 0 and write exactly one
// valid JSON line per non-blank input line, each with either its result fields or a string
// `error` — one bad line never takes the others down.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Command } from '../cli/command.js';
import { minigridReplayCommand } from '../cli/commands/minigrid-replay.js';
import { webshopRewardCommand } from '../cli/commands/webshop-reward.js';
import { webshopSearchCommand } from '../cli/commands/webshop-search.js';
import { runCommand } from '../cli/testing.js';
import { Rng } from '../core/rng.js';
import { mutateJson, mutateText, randomJson } from './fuzz.js';

const golden = (path: string): unknown[] =>
  readFileSync(new URL(`../envs/${path}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

const CASES: { command: Command; file: string; result: string; lines: number }[] = [
  {
    command: webshopRewardCommand,
    file: 'webshop/golden/webshop-reward.jsonl',
    result: 'reward',
    lines: 400,
  },
  { command: webshopSearchCommand, file: 'webshop/golden/webshop-search.jsonl', result: 'asins', lines: 300 },
  {
    command: minigridReplayCommand,
    file: 'minigrid/golden/minigrid-replay.jsonl',
    result: 'frames',
    lines: 300,
  },
];

/** Splits output the way the commands' line reader splits input. */
const nonBlankLines = (text: string): string[] => text.split(/\r\n|\r|\n/).filter((l) => l.trim() !== '');

describe.each(CASES)('$command.name fuzz', ({ command, file, result, lines }) => {
  it(`answers ${lines} mutated lines one for one with a result or an error`, async () => {
    const rng = new Rng(99).fork(command.name);
    const seeds = golden(file);
    const keys = [...new Set(seeds.flatMap((s) => Object.keys(s as object)))];
    const input: string[] = [];
    for (let i = 0; i < lines; i++) {
      const seed = rng.choice(seeds);
      const r = rng.float();
      if (r < 0.6) input.push(JSON.stringify(mutateJson(rng, seed, 3, keys)));
      else if (r < 0.8) input.push(mutateText(rng, JSON.stringify(seed)));
      else if (r < 0.9) input.push(JSON.stringify(randomJson(rng, 3, keys)));
      else input.push(JSON.stringify(seed));
    }
    const stdin = `${input.join('\n')}\n`;
    const t0 = performance.now();
    const out = await runCommand(command, [], stdin);
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe('');
    const outLines = out.stdout.trimEnd().split('\n');
    expect(outLines).toHaveLength(nonBlankLines(stdin).length);
    let errors = 0;
    for (const line of outLines) {
      const value = JSON.parse(line) as Record<string, unknown>;
      expect('id' in value).toBe(true);
      if ('error' in value) {
        expect(typeof value.error).toBe('string');
        expect((value.error as string).length).toBeGreaterThan(0);
        errors++;
      } else {
        expect(value[result], line.slice(0, 200)).toBeDefined();
      }
    }
    // Both outcomes occur: the fuzz is neither all-valid nor all-garbage.
    expect(errors).toBeGreaterThan(lines / 10);
    expect(errors).toBeLessThan(outLines.length);
  });
});
