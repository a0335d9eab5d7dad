// The minigrid-replay contract through the CLI command, in process: the public examples must
// reproduce real MiniGrid's frames (rewards within 1e-9, everything else exact), and bad lines
// must get error lines that name the field.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCommand, usageErrorOf } from '../testing.js';
import { minigridReplayCommand } from './minigrid-replay.js';

// Copies of the public cases of docs/cli-contracts.md, minigrid-replay{,.expected}.jsonl.
const golden = (name: string) =>
  readFileSync(new URL(`../../envs/minigrid/golden/${name}`, import.meta.url), 'utf8');

function readLines(name: string): unknown[] {
  return golden(name)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

interface Frame {
  reward: number;
  [k: string]: unknown;
}

describe('minigrid-replay command', () => {
  it('reproduces the contract examples exactly', async () => {
    const input = golden('minigrid-replay.jsonl');
    const expected = readLines('minigrid-replay.expected.jsonl') as { id: string; frames: Frame[] }[];
    const res = await runCommand(minigridReplayCommand, [], input);
    expect(res.code).toBe(0);
    const got = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)) as { id: string; frames: Frame[] }[];
    expect(got.map((g) => g.id)).toEqual(expected.map((e) => e.id));
    got.forEach((g, i) => {
      const e = expected[i] as { id: string; frames: Frame[] };
      expect(g.frames.length, e.id).toBe(e.frames.length);
      g.frames.forEach((f, k) => {
        const ef = e.frames[k] as Frame;
        expect(Math.abs(f.reward - ef.reward), `${e.id} frame ${k} reward`).toBeLessThan(1e-9);
        expect({ ...f, reward: 0 }, `${e.id} frame ${k}`).toEqual({ ...ef, reward: 0 });
      });
    });
  });

  it('answers bad lines with errors naming the field and goes on', async () => {
    const good = golden('minigrid-replay.jsonl').split('\n')[0] as string;
    const base = JSON.parse(good);
    const bad = [
      { ...base, id: 'bad-type', cells: [{ x: 1, y: 1, type: 'tree' }] },
      { ...base, id: 'bad-dir', agent: { x: 3, y: 5, dir: 4, carrying: null } },
      { ...base, id: 'bad-action', actions: ['left', 'jump'] },
      { ...base, id: 'bad-state', cells: [{ x: 1, y: 1, type: 'key', state: 'open' }] },
      { ...base, id: 'off-grid', cells: [{ x: 9, y: 1, type: 'wall' }] },
    ];
    const input = [...bad.map((b) => JSON.stringify(b)), 'not json', good].join('\n');
    const res = await runCommand(minigridReplayCommand, [], input);
    expect(res.code).toBe(0);
    const out = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out).toHaveLength(7);
    expect(out[0]).toEqual({ id: 'bad-type', error: expect.stringContaining('cells[0].type') });
    expect(out[1]).toEqual({ id: 'bad-dir', error: expect.stringContaining('agent.dir') });
    expect(out[2]).toEqual({ id: 'bad-action', error: expect.stringContaining('actions[1]') });
    expect(out[3]).toEqual({ id: 'bad-state', error: expect.stringContaining('cells[0].state') });
    expect(out[4]).toEqual({ id: 'off-grid', error: expect.stringContaining('cells[0].x') });
    expect(out[5]).toMatchObject({ id: null, error: expect.stringContaining('not valid JSON') });
    expect(out[6].id).toBe(base.id);
    expect(out[6].frames).toHaveLength(3);
  });

  it('refuses arguments', async () => {
    expect(await usageErrorOf(minigridReplayCommand, ['--x'], '')).toMatch('unexpected argument');
  });
});
