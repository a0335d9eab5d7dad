import { describe, expect, it } from 'vitest';
import { type Config, defaultConfig, validateConfig } from './config.js';
import { ABLATIONS, applyPreset, PRESETS } from './presets.js';
import { filterArmOf } from './rl/filterArms.js';

describe('presets', () => {
  it.each(Object.keys(PRESETS))('%s validates and gives a reason only for fields it sets', (name) => {
    const p = PRESETS[name]!;
    const c = applyPreset(defaultConfig(), name);
    expect(validateConfig(c).ok).toBe(true);
    expect(c.algorithm).toBe(p.algorithm);
    for (const k of Object.keys(p.reasons)) expect(Object.keys(p.overrides), k).toContain(k);
  });

  it('every preset says how long it runs before Start, from a measurement or a stated bound', () => {
    for (const p of Object.values(PRESETS)) {
      expect(p.time, p.name).toBeTruthy();
      expect(p.time, p.name).toMatch(/minute|measured|not timed/);
    }
  });

  it('compares the trap and the stable setting at matched optimizer steps', () => {
    const trap = applyPreset(defaultConfig(), 'echo-trap');
    const stable = applyPreset(defaultConfig(), 'stable');
    expect(trap.stepsPerIteration).toBeGreaterThan(0);
    expect(stable.stepsPerIteration).toBe(trap.stepsPerIteration);
    expect(stable.lr).toBe(trap.lr);
    // The study's StarPO-S: the paper's subsample filter and PPO's critic beside vanilla's GRPO.
    expect(stable.algorithm).toBe('starpo-s');
    expect(stable.advantage).toBe('gae');
    expect(trap.advantage).toBe('grpo');
    expect(stable.filterMode).toBe('subsample');
    expect(trap.filterMode).toBe('off');
    expect(stable.temperature).toBe(trap.temperature);
    expect(stable.groups).toBe(trap.groups);
  });

  it.each(Object.keys(PRESETS))('%s names the StarPO-S arm its filter settings make', (name) => {
    const c = applyPreset(defaultConfig(), name);
    expect(PRESETS[name]!.arm ?? null).toBe(filterArmOf(c));
  });

  it('has the three StarPO-S arms beside the echo-trap preset (RAGEN: 1 step of 32 vs 4)', () => {
    const trap = applyPreset(defaultConfig(), 'echo-trap');
    const arm = (name: string) => applyPreset(defaultConfig(), name);
    expect(filterArmOf(arm('stable-paper'))).toBe('paper');
    expect(arm('stable-paper').stepsPerIteration).toBe(0);
    expect(arm('stable-paper').minibatch).toBe(32);
    expect(filterArmOf(arm('stable'))).toBe('steps-matched');
    expect(arm('stable').stepsPerIteration).toBe(trap.stepsPerIteration);
    expect(filterArmOf(arm('stable-samples'))).toBe('samples-matched');
    expect(arm('stable-samples').stepsPerIteration).toBe(trap.stepsPerIteration);
    // The arms differ only in the two switches that make them.
    const rest = (c: Config) => {
      const { filterMode: _f, stepsPerIteration: _s, ...others } = c;
      return others;
    };
    for (const name of ['stable-paper', 'stable-samples'])
      expect(rest(arm(name)), name).toEqual(rest(arm('stable')));
  });

  it('every ablation is a valid one-switch variant of StarPO-S', () => {
    const base = applyPreset(defaultConfig(), 'stable');
    for (const a of ABLATIONS) {
      expect(validateConfig({ ...base, ...a.overrides }).ok, a.name).toBe(true);
      expect(Object.keys(a.overrides).length, a.name).toBeLessThanOrEqual(2);
    }
  });
});
