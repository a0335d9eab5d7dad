// Every metric key, every config field and every detector signal has an explanation with a
// non-empty "what" and "why"; no entry explains a key that does not exist (a renamed key would
// otherwise leave its text orphaned); formulas, where given, are non-empty.
import { describe, expect, it } from 'vitest';
import { FIELDS } from '../../core/config.js';
import { DETECTOR_SIGNALS, EchoTrapDetector } from '../../core/metrics/detector.js';
import { METRICS } from '../../core/metrics/keys.js';
import { PRESETS } from '../../core/presets.js';
import { ESTIMATOR_VARIANTS } from '../../core/variants/estimators.js';
import { FILTER_VARIANTS } from '../../core/variants/filters.js';
import { LOSS_AGG_VARIANTS } from '../../core/variants/lossAggs.js';
import { POLICY_LOSS_VARIANTS } from '../../core/variants/policyLosses.js';
import { RATIO_LEVEL_VARIANTS } from '../../core/variants/ratioLevels.js';
import {
  type Explanation,
  explain,
  FIELD_TEXTS,
  METRIC_TEXTS,
  SIGNAL_LABELS,
  SIGNAL_TEXTS,
  signalLabel,
} from './texts.js';

function complete(e: Explanation | null): boolean {
  return Boolean(e && e.what.trim().length > 10 && e.why.trim().length > 10 && e.formula?.trim() !== '');
}

describe('explanations', () => {
  it('cover every metric key', () => {
    const missing = METRICS.map((m) => m.key).filter((k) => !complete(explain('metric', k)));
    expect(missing).toEqual([]);
  });

  it('cover every config field', () => {
    const missing = FIELDS.map((f) => f.key).filter((k) => !complete(explain('field', k)));
    expect(missing).toEqual([]);
  });

  it('name every row of an axis in its setting’s explanation, in the row’s own words', () => {
    const axes = {
      advantage: ESTIMATOR_VARIANTS,
      filterMode: FILTER_VARIANTS,
      lossAgg: LOSS_AGG_VARIANTS,
      ratioLevel: RATIO_LEVEL_VARIANTS,
      policyLoss: POLICY_LOSS_VARIANTS,
    };
    for (const [field, rows] of Object.entries(axes)) {
      const what = explain('field', field)?.what ?? '';
      for (const r of rows) {
        expect(r.help.startsWith(r.name), `${field} ${r.name}`).toBe(true);
        expect(what, `${field} ${r.name}`).toContain(r.help);
      }
    }
  });

  it('cover every detector signal', () => {
    expect(DETECTOR_SIGNALS.length).toBeGreaterThanOrEqual(11);
    const missing = DETECTOR_SIGNALS.filter((s) => !complete(explain('signal', s)));
    expect(missing).toEqual([]);
  });

  it('give every detector signal a plain name, never its code id', () => {
    for (const sig of DETECTOR_SIGNALS) {
      expect(Object.keys(SIGNAL_LABELS)).toContain(sig);
      expect(signalLabel(sig)).not.toMatch(/[a-z][A-Z]/);
    }
  });

  it('explain nothing that does not exist', () => {
    expect(Object.keys(METRIC_TEXTS).sort()).toEqual(METRICS.map((m) => m.key).sort());
    expect(Object.keys(FIELD_TEXTS).sort()).toEqual(FIELDS.map((f) => f.key).sort());
    expect(Object.keys(SIGNAL_TEXTS).sort()).toEqual([...DETECTOR_SIGNALS].sort());
    expect(explain('metric', 'toString')).toBeNull();
  });

  it('the signal list matches what the detector really fires', () => {
    // A run that peaks and collapses, with a malformed rise: every fired signal is listed.
    const d = new EchoTrapDetector();
    const fired = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const success = i < 15 ? i / 15 : Math.max(0, 1 - (i - 15) / 5);
      const row = { iteration: i, 'rollout/successRate': success, 'rollout/malformedRate': i < 15 ? 0 : 0.9 };
      for (const e of d.update(row)) fired.add(e.signal);
    }
    expect(fired.has('successCollapse')).toBe(true);
    for (const s of fired) expect(DETECTOR_SIGNALS).toContain(s);
  });

  it('the learning rate text agrees with the echo-trap preset’s measured reason', () => {
    const text = explain('field', 'lr')?.why ?? '';
    const preset = PRESETS['echo-trap'];
    // Every learning rate the preset's reason reports, and the preset's own, appear in the text…
    const measured = (preset?.reasons.lr ?? '').match(/\d(?:\.\d+)?e-\d+/g) ?? [];
    expect(measured.length).toBeGreaterThan(1);
    for (const lr of [...measured, (preset?.overrides.lr ?? 0).toExponential()]) expect(text).toContain(lr);
    // …and the reason's "breaks at once" rates are not called converging in it.
    expect(text).not.toMatch(/1e-3[^.;]*converge/);
    expect(text).toContain('break');
  });

  it('the iterations text gives the lengths the presets run', () => {
    const text = explain('field', 'iterations')?.why ?? '';
    expect(text).toContain(`echo-trap preset runs ${PRESETS['echo-trap']?.overrides.iterations}`);
    for (const id of ['bandit-starpo', 'frozenlake-starpo', 'sokoban-starpo'])
      expect(text, id).toContain(`presets ${PRESETS[id]?.overrides.iterations}`);
  });
});
