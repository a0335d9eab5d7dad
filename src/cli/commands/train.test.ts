import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.js';
import { UsageError } from '../command.js';
import { parseFlags } from '../flags.js';
import { runCommand, TINY_ROLLOUT_FLAGS, usageErrorOf } from '../testing.js';
import { resolveTrainConfig } from '../trainConfig.js';
import { trainMetrics } from '../trainTesting.js';
import { trainCommand } from './train.js';

const noBase = async () => null;

/** A run small enough for a test: random base, CPU, 2 × 2 one-turn rollouts, short answers, no measurements. */
const SMALL = ['--base', 'random', '--backend', 'cpu', ...TINY_ROLLOUT_FLAGS];
const TINY = ['--eval-every', '0', '--mi-every', '0', '--quiet'];

describe('train config resolution', () => {
  it('layers base settings, algorithm switches, file and flags in that order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-'));
    const file = join(dir, 'c.json');
    await writeFile(file, JSON.stringify({ groups: 4, clipHigh: 0.3, maxTurns: 7 }));
    const c = await resolveTrainConfig(
      { algo: 'starpo-s', config: file, 'max-turns': '2', seed: '9' },
      async () => ({
        label: 'the base model test',
        settings: { maxTurns: 3, historyTurns: 3 },
        context: 512,
      }),
    );
    expect(c.algorithm).toBe('starpo-s');
    expect(c.filterMode).toBe('subsample'); // from the algorithm
    expect(c.clipHigh).toBe(0.3); // file beats the algorithm
    expect(c.maxTurns).toBe(2); // flag beats the file
    expect(c.historyTurns).toBe(3); // base model setting
    expect(c.groups).toBe(4);
    expect(c.seed).toBe(9);
  });

  it('names the flag of an invalid value and refuses unknown flags', async () => {
    await expect(resolveTrainConfig({ groups: '0' }, noBase)).rejects.toThrow(/--groups: must be at least 1/);
    await expect(resolveTrainConfig({ lr: 'fast' }, noBase)).rejects.toThrow(/--lr: "fast" is not a number/);
    await expect(resolveTrainConfig({ env: 'minigrid/Nope' }, noBase)).rejects.toThrow(
      /--env: "minigrid\/Nope" is not a registered/,
    );
    expect(() => parseFlags(['--colour', 'red'], [])).toThrow(UsageError);
  });

  it('refuses a config file with unknown fields or bad JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-'));
    await writeFile(join(dir, 'a.json'), JSON.stringify({ colour: 'red' }));
    await expect(resolveTrainConfig({ config: join(dir, 'a.json') }, noBase)).rejects.toThrow(
      /colour: is not a config field/,
    );
    await writeFile(join(dir, 'b.json'), '{');
    await expect(resolveTrainConfig({ config: join(dir, 'b.json') }, noBase)).rejects.toThrow(
      /not valid JSON/,
    );
  });
});

describe('train command', () => {
  it('exits 2 with the usage on bad arguments', async () => {
    const r = await runCommand(trainCommand, ['--env', 'minigrid/DoorKey-5x5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out <dir> is required/);
  });

  it('--workers 2 runs the critic in a thread of its own and writes the rows of --workers 1; bad values are refused', async () => {
    const args = ['--env', 'minigrid/Empty-5x5', '--algo', 'starpo-ppo', '--iters', '2', '--seed', '5'];
    const machine = /^(time|memory|perf)\//;
    const runRows = (rows: Record<string, number>[]) =>
      rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !machine.test(k))));
    const one = await trainMetrics([...args, ...SMALL, ...TINY, '--workers', '1']);
    const two = await trainMetrics([...args, ...SMALL, ...TINY, '--workers', '2']);
    expect(one[1]?.['critic/vfLoss']).toBeGreaterThan(0);
    expect(runRows(two)).toEqual(runRows(one));
    // Said on the command line unless quiet.
    const out = await mkdtemp(join(tmpdir(), 'starpo-run-'));
    const said = await runCommand(trainCommand, [
      ...args,
      ...SMALL,
      ...TINY.filter((a) => a !== '--quiet'),
      '--workers',
      '2',
      '--out',
      out,
    ]);
    expect(said.stderr).toMatch(/^schedule: 2 workers \(asked for\): the critic beside the policy/);
    expect(await usageErrorOf(trainCommand, [...args, '--out', out, '--workers', '3'])).toMatch(
      /--workers: "3" is not one of auto, 1, 2/,
    );
  }, 120_000);

  it('a run without a critic on --workers 2 measures in its thread and writes the rows of --workers 1', async () => {
    // Evaluation and the MI proxy every iteration, taken in the second thread on its own
    // held-out envs. (The reference's shared scoring, which needs more than one length group:
    // workers/node/nodeCritic.test.ts.)
    const args = ['--env', 'minigrid/Empty-5x5', '--algo', 'starpo-grpo', '--iters', '2', '--seed', '5'];
    const measured = ['--eval-every', '1', '--eval-episodes', '2', '--mi-every', '1', '--mi-samples', '2'];
    const small = [
      ...SMALL,
      ...TINY.filter((a) => !['0', '--eval-every', '--mi-every'].includes(a)),
      ...measured,
    ];
    const machine = /^(time|memory|perf)\//;
    const runRows = (rows: Record<string, number>[]) =>
      rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !machine.test(k))));
    const one = await trainMetrics([...args, ...small, '--workers', '1']);
    const two = await trainMetrics([...args, ...small, '--workers', '2']);
    expect(one[1]?.['eval/successRate']).toBeTypeOf('number');
    expect(runRows(two)).toEqual(runRows(one));
    const out = await mkdtemp(join(tmpdir(), 'starpo-run-'));
    const said = await runCommand(trainCommand, [
      ...args,
      ...small.filter((a) => a !== '--quiet'),
      '--workers',
      '2',
      '--out',
      out,
    ]);
    expect(said.stderr).toMatch(
      /^schedule: 2 workers \(asked for\): half of each turn’s sampling, half the reference scoring and the measurements beside the policy/,
    );
  }, 120_000);

  it('trains a tiny run and writes metrics, events, summary and checkpoints', async () => {
    const out = await mkdtemp(join(tmpdir(), 'starpo-run-'));
    const args = [
      '--env',
      'minigrid/Empty-5x5',
      '--algo',
      'starpo-grpo',
      '--iters',
      '2',
      '--seed',
      '3',
      '--out',
      out,
    ];
    const r = await runCommand(trainCommand, [...args, ...SMALL, ...TINY]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = (await readFile(join(out, 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => x.iteration)).toEqual([0, 1]);
    expect(rows[0]['rollout/successRate']).toBeTypeOf('number');
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({
      algo: 'starpo-grpo',
      env: 'minigrid/Empty-5x5',
      seed: 3,
      iterations: 2,
      completed: true,
    });
    expect(typeof summary.echoTrap).toBe('boolean');
    const config = JSON.parse(await readFile(join(out, 'config.json'), 'utf8'));
    expect(config).toMatchObject({
      ...defaultConfig(),
      algorithm: 'starpo-grpo',
      advantage: 'grpo',
      klMode: 'loss',
      groups: 2,
      seed: 3,
      iterations: 2,
      env: 'minigrid/Empty-5x5',
      backend: 'cpu',
      maxTurns: 1,
      maxTokensPerTurn: 6,
      contextLength: 128,
      evalEvery: 0,
      miEvery: 0,
      groupSize: 2,
    });
    const manifest = JSON.parse(await readFile(join(out, 'checkpoints', 'final.json'), 'utf8'));
    expect(manifest.meta).toMatchObject({ iteration: 2, algorithm: 'starpo-grpo' });
  });
});
