import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALGORITHM_NAMES, type Config, defaultConfig } from '../../core/config.js';
import { applyAlgorithm } from '../../core/rl/algorithms.js';
import { runCommand } from '../testing.js';
import { exportRagenCommand, ragenOverrides, ragenPaths } from './export-ragen.js';
import {
  RAGEN_V1_KEYS,
  RAGEN_V1_VALUES,
  RAGEN_V2_DROPPED,
  RAGEN_V2_KEYS,
  RAGEN_V2_VALUES,
} from './ragen-keys.fixture.js';

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
    const { mapped } = ragenOverrides(config, 'Qwen/Qwen2.5-0.5B-Instruct', 'v2');
    expect(mapped.length).toBeGreaterThan(25);
    for (const m of mapped) expect(get(doc, m.path), m.path).toEqual(m.value);
    expect(get(doc, 'es_manager.train.env_groups')).toBe(6);
    expect(get(doc, 'es_manager.train.group_size')).toBe(12);
    expect(get(doc, 'actor_rollout_ref.actor.clip_ratio_high')).toBe(0.28);
    // RAGEN v2's filter keys (the default version): the paper's std filter is top_k by share.
    expect(get(doc, 'actor_rollout_ref.rollout.rollout_filter_strategy')).toBe('top_k');
    expect(get(doc, 'actor_rollout_ref.rollout.rollout_filter_value')).toBe(0.25);
    expect(get(doc, 'actor_rollout_ref.rollout.rollout_filter_ratio')).toBeUndefined();
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

  it.each(['v1', 'v2'] as const)(
    '%s: every key written is one that version’s base.yaml has, with a value it allows, for every algorithm and filter',
    (version) => {
      const keys = new Set(version === 'v1' ? RAGEN_V1_KEYS : RAGEN_V2_KEYS);
      const allowed = version === 'v1' ? RAGEN_V1_VALUES : RAGEN_V2_VALUES;
      for (const p of ragenPaths(version)) expect(keys.has(p), `${version} ${p}`).toBe(true);
      for (const algo of ALGORITHM_NAMES)
        for (const filterMode of ['off', 'subsample', 'oversample', 'top-p', 'dynamic'] as const) {
          const c = { ...applyAlgorithm(defaultConfig(), algo), filterMode };
          for (const m of ragenOverrides(c, 'm', version).mapped) {
            expect(keys.has(m.path), `${algo} ${filterMode}: ${m.path}`).toBe(true);
            const ok = allowed[m.path];
            if (ok) expect(ok, `${algo} ${filterMode}: ${m.path} = ${m.value}`).toContain(m.value);
          }
        }
      if (version === 'v2') for (const p of RAGEN_V2_DROPPED) expect(ragenPaths('v2')).not.toContain(p);
    },
  );

  it('maps the 2026 variants and RAGEN-2’s top-p filter to v2’s keys, and lists what v1 cannot say', () => {
    const at = (c: Config, version: 'v1' | 'v2', path: string) =>
      ragenOverrides(c, 'm', version).mapped.find((m) => m.path === path)?.value;
    const dr = applyAlgorithm(defaultConfig(), 'starpo-drgrpo');
    expect(at(dr, 'v2', 'algorithm.norm_adv_by_std_in_grpo')).toBe(false);
    expect(at(dr, 'v2', 'actor_rollout_ref.actor.loss_agg_mode')).toBe('seq-mean-token-sum');
    expect(ragenOverrides(dr, 'm', 'v1').unmapped.join('\n')).toMatch(/normAdvByStd false .*--ragen v2/);
    const topP = { ...applyAlgorithm(defaultConfig(), 'starpo-s'), filterMode: 'top-p' as const };
    expect(at(topP, 'v2', 'actor_rollout_ref.rollout.rollout_filter_strategy')).toBe('top_p');
    expect(at(topP, 'v2', 'actor_rollout_ref.rollout.rollout_filter_value')).toBe(0.9);
    expect(at(topP, 'v2', 'actor_rollout_ref.rollout.rollout_filter_include_zero')).toBe(false);
    expect(at(topP, 'v1', 'actor_rollout_ref.rollout.rollout_filter_ratio')).toBe(1);
    expect(ragenOverrides(topP, 'm', 'v1').unmapped.join('\n')).toMatch(/top-p 0.9: RAGEN v1 has only/);
    // No filter: v2's documented default (top_p, value 1, zero-variance groups included).
    const off = applyAlgorithm(defaultConfig(), 'starpo-ppo');
    expect(at(off, 'v2', 'actor_rollout_ref.rollout.rollout_filter_value')).toBe(1);
    expect(at(off, 'v2', 'actor_rollout_ref.rollout.rollout_filter_include_zero')).toBe(true);
    const gspo = applyAlgorithm(defaultConfig(), 'starpo-gspo');
    expect(ragenOverrides(gspo, 'm', 'v2').unmapped.join('\n')).toMatch(/ratioLevel sequence \(GSPO\)/);
    const dapo = applyAlgorithm(defaultConfig(), 'starpo-dapo');
    expect(ragenOverrides(dapo, 'm', 'v2').unmapped.join('\n')).toMatch(/filterMode dynamic/);
  });

  it('says which version it wrote and refuses an unknown one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-ragen-'));
    await writeFile(join(dir, 'config.json'), JSON.stringify(applyAlgorithm(defaultConfig(), 'starpo-s')));
    const v1 = await runCommand(exportRagenCommand, ['--config', join(dir, 'config.json'), '--ragen', 'v1']);
    expect(v1.code).toBe(0);
    expect(v1.stdout).toMatch(/RAGEN v1 overrides/);
    expect(v1.stdout).toMatch(/f92df5d67266af273d9c5ea4d25eb96d235b41ff/);
    expect(get(parse(v1.stdout), 'actor_rollout_ref.rollout.rollout_filter_ratio')).toBe(0.25);
    const bad = await runCommand(exportRagenCommand, ['--config', join(dir, 'config.json'), '--ragen', 'v3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--ragen: must be v1 or v2/);
  });
});
