import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultConfig } from '../../core/config.js';
import { applyAlgorithm } from '../../core/rl/algorithms.js';
import { runCommand } from '../testing.js';
import { exportRagenCommand, ragenOverrides } from './export-ragen.js';

function get(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
}

describe('export-ragen', () => {
  it('writes YAML that parses and carries every mapped field', async () => {
    const config = { ...applyAlgorithm(defaultConfig(), 'starpo-s'), groups: 6, groupSize: 12, lr: 0.002 };
    const dir = await mkdtemp(join(tmpdir(), 'starpo-ragen-'));
    await writeFile(join(dir, 'config.json'), JSON.stringify(config));
    const r = await runCommand(exportRagenCommand, ['--config', join(dir, 'config.json')]);
    expect(r.code).toBe(0);
    const doc = parse(r.stdout);
    const { mapped } = ragenOverrides(config, 'Qwen/Qwen2.5-0.5B-Instruct');
    expect(mapped.length).toBeGreaterThan(25);
    for (const m of mapped) expect(get(doc, m.path), m.path).toEqual(m.value);
    expect(get(doc, 'es_manager.train.env_groups')).toBe(6);
    expect(get(doc, 'es_manager.train.group_size')).toBe(12);
    expect(get(doc, 'actor_rollout_ref.actor.clip_ratio_high')).toBe(0.28);
    expect(get(doc, 'actor_rollout_ref.rollout.rollout_filter_ratio')).toBe(0.25);
    expect(get(doc, 'actor_rollout_ref.actor.use_kl_loss')).toBe(false);
    expect(get(doc, 'es_manager.format_penalty')).toBe(-0.1);
    expect(r.stdout).toMatch(/# not mapped: env minigrid\/DoorKey-5x5/);
  });

  it('puts KL where RAGEN does: in the reward for StarPO-PPO, in the loss for GRPO', () => {
    const value = (algo: 'starpo-ppo' | 'starpo-grpo', path: string, extra = {}) =>
      ragenOverrides({ ...applyAlgorithm(defaultConfig(), algo), ...extra }, 'm').mapped.find(
        (m) => m.path === path,
      )?.value;
    expect(value('starpo-ppo', 'actor_rollout_ref.actor.use_kl_loss')).toBe(false);
    expect(value('starpo-ppo', 'actor_rollout_ref.actor.kl_loss_coef')).toBe(0);
    expect(value('starpo-ppo', 'algorithm.use_kl_in_reward')).toBe(true);
    expect(value('starpo-ppo', 'algorithm.kl_ctrl.kl_coef')).toBe(0.001);
    expect(value('starpo-ppo', 'algorithm.kl_penalty')).toBe('kl');
    expect(value('starpo-ppo', 'algorithm.kl_penalty', { klEstimator: 'k3' })).toBe('low_var_kl');
    expect(value('starpo-grpo', 'actor_rollout_ref.actor.use_kl_loss')).toBe(true);
    expect(value('starpo-grpo', 'actor_rollout_ref.actor.kl_loss_coef')).toBe(0.001);
    expect(value('starpo-grpo', 'algorithm.use_kl_in_reward')).toBe(false);
    expect(value('starpo-grpo', 'algorithm.kl_ctrl.kl_coef')).toBe(0);
    expect(value('starpo-grpo', 'actor_rollout_ref.actor.loss_agg_mode')).toBe('token-mean');
  });

  it('maps GRPO to mean_std normalisation and refuses a bad config', async () => {
    const { mapped } = ragenOverrides(applyAlgorithm(defaultConfig(), 'starpo-grpo'), 'm');
    expect(mapped.find((m) => m.path === 'agent_proxy.reward_normalization.method')?.value).toBe('mean_std');
    expect(mapped.find((m) => m.path === 'algorithm.adv_estimator')?.value).toBe('grpo');
    const dir = await mkdtemp(join(tmpdir(), 'starpo-ragen-'));
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ lr: 7 }));
    const r = await runCommand(exportRagenCommand, ['--config', join(dir, 'bad.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/lr: must be at most/);
  });
});
