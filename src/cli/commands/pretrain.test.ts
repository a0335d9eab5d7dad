// Base models: a short pretraining run lowers the SFT loss and writes a loadable checkpoint and
// index entry; the shipped DoorKey-5x5 base model beats an untrained policy on held-out seeds.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { modelConfig } from '../../core/model/config.js';
import { parseModelIndex } from '../../core/model/modelIndex.js';
import { createPolicy, disposeModel } from '../../core/model/params.js';
import { type EpisodeSettings, episodeSettings } from '../../core/resolve.js';
import { InProcessEnvPool } from '../../core/rl/envPool.js';
import { evaluatePolicy } from '../../core/rl/evaluate.js';
import { Rng } from '../../core/rng.js';
import { envSpec } from '../../envs/registry.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { loadBase, readCheckpointFile } from '../../workers/node/baseModel.js';
import { runCommand, usageErrorOf } from '../testing.js';
import { pretrainCommand } from './pretrain.js';

describe('pretrain', () => {
  it('lowers the SFT loss and writes a checkpoint and an index entry', async () => {
    const out = await mkdtemp(join(tmpdir(), 'starpo-pretrain-'));
    const r = await runCommand(pretrainCommand, [
      '--env',
      'minigrid/DoorKey-5x5',
      '--episodes',
      '60',
      '--steps',
      '30',
      '--batch',
      '4',
      '--lr',
      '0.003',
      '--max-turns',
      '3',
      '--max-actions-per-turn',
      '5',
      '--max-actions',
      '15',
      '--history-turns',
      '3',
      '--eval-episodes',
      '4',
      '--out',
      out,
      '--name',
      'short',
    ]);
    expect(r.code).toBe(0);
    const entry = JSON.parse(r.stdout);
    expect(entry.pretrain.finalLoss).toBeLessThan(0.6 * entry.pretrain.firstLoss);
    const index = parseModelIndex(JSON.parse(await readFile(join(out, 'index.json'), 'utf8')));
    expect(index.map((e) => e.id)).toEqual(['short']);
    const loaded = await readCheckpointFile(join(out, 'short.json'));
    expect(loaded.base.tokenizer.size).toBe(entry.pretrain.vocabulary);
    disposeModel(loaded.base.policy);
    expect(entry.pretrain.evalEpisodes).toBe(4);

    // --remeasure: the same measurement again (same seeds) gives the same figures; on more
    // goals it rewrites only the figures and their episode count.
    const again = ['--env', 'minigrid/DoorKey-5x5', '--out', out, '--name', 'short', '--remeasure'];
    const same = await runCommand(pretrainCommand, [...again, '--eval-episodes', '4']);
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout)).toEqual(entry);
    const more = await runCommand(pretrainCommand, [...again, '--eval-episodes', '12']);
    expect(more.code, more.stderr).toBe(0);
    const [updated] = parseModelIndex(JSON.parse(await readFile(join(out, 'index.json'), 'utf8')));
    expect(updated?.pretrain.evalEpisodes).toBe(12);
    expect({ ...updated?.pretrain, evalEpisodes: 4, greedyReward: 0, sampledReward: 0 }).toEqual({
      ...entry.pretrain,
      greedyReward: 0,
      sampledReward: 0,
    });
    expect((updated?.greedySuccess ?? -1) * 12).toBeCloseTo(
      Math.round((updated?.greedySuccess ?? -1) * 12),
      9,
    );
    expect(
      await usageErrorOf(pretrainCommand, ['--env', 'minigrid/DoorKey-5x5', '--out', out, '--remeasure']),
    ).toMatch(/--remeasure: .*index\.json has no entry "minigrid-doorkey-5x5-nano"/);
  }, 300_000);

  it('refuses an unknown --position-init, openings of no turns or all skipped, and demonstrations from another family, before any work', async () => {
    const env = ['--env', 'webshop/lite'];
    expect(await usageErrorOf(pretrainCommand, [...env, '--position-init', 'rope'])).toMatch(
      /--position-init must be random, sinusoid, prevtok or prevtok2, got "rope"/,
    );
    expect(await usageErrorOf(pretrainCommand, [...env, '--opening-turns', '0'])).toMatch(
      /--opening-turns must be a whole number from 1 to 50, got 0/,
    );
    expect(
      await usageErrorOf(pretrainCommand, [...env, '--opening-turns', '3', '--opening-skip', '3']),
    ).toMatch(/--opening-skip must be a whole number below --opening-turns \(3\), got 3/);
    // Every option is checked against its row of the table, named with its range.
    expect(await usageErrorOf(pretrainCommand, [...env, '--noise', '1.5'])).toMatch(
      /--noise must be from 0 to 1, got 1.5/,
    );
    expect(await usageErrorOf(pretrainCommand, [...env, '--batch', '2.5'])).toMatch(/--batch: "2.5" is not/);
    expect(await usageErrorOf(pretrainCommand, [...env, '--schedule', 'step'])).toMatch(
      /--schedule must be constant or cosine, got "step"/,
    );
    expect(await usageErrorOf(pretrainCommand, [...env, '--demo-env', 'minigrid/DoorKey-5x5'])).toMatch(
      /--demo-env minigrid\/DoorKey-5x5 is not of webshop\/lite's family \(webshop\)/,
    );
  });

  it('the shipped DoorKey-5x5 base model beats an untrained policy on held-out seeds', async () => {
    await setupNodeBackend('wasm');
    const { base, settings } = await loadBase({
      env: 'minigrid/DoorKey-5x5',
      size: 'nano',
      context: 512,
      seed: 1,
    });
    const random = createPolicy(modelConfig('nano', base.tokenizer.size, 512), new Rng(9));
    const pool = new InProcessEnvPool(() => envSpec('minigrid/DoorKey-5x5').make());
    const s = { ...(episodeSettings(settings) as EpisodeSettings), contextLength: 512, formatPenalty: 0.1 };
    const trained = await evaluatePolicy(base.policy, base.tokenizer, pool, s, 32, 3);
    const untrained = await evaluatePolicy(random, base.tokenizer, pool, s, 32, 3);
    expect(untrained.greedy).toBe(0);
    expect(trained.greedy).toBeGreaterThan(untrained.greedy);
    expect(trained.greedyReturn).toBeGreaterThan(untrained.greedyReturn);
    disposeModel(random);
    disposeModel(base.policy);
    await tf.setBackend('cpu');
  }, 300_000);
});
