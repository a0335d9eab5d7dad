// The tour's words about its recordings are true of the shipped recordings themselves
// (public/recorded/): the advantage clause follows the recorded config (a starpo-ppo run is not
// described as GRPO), "watch success rise" appears only where success rises over the replayed
// stretch, a metric that hardly moved is said to have hardly moved, a sparse MI is reported by
// the iteration it was measured at (never "now –"), the late thinking quoted is a failed
// episode, and each recording maps back to the preset it was made with.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFile, type RunData } from '../../core/files/runFile.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import { points, presetFor } from './tourSteps.js';
import {
  advantageWords,
  changeWords,
  firstMeasured,
  lateFailure,
  latestBefore,
  meanOver,
  noTrapWords,
  successStretch,
  trend,
  watchWords,
} from './tourText.js';

function recording(name: string): RunData {
  const parsed = parseFile(
    readFileSync(new URL(`../../../public/recorded/${name}`, import.meta.url), 'utf8'),
  );
  if (!parsed.ok || parsed.kind !== 'run') throw new Error(`${name} is not a run file`);
  return { ...parsed.run, meta: { ...parsed.run.meta, id: name } };
}

const starpo = recording('echo-trap-starpo.json');
const starpoS = recording('echo-trap-starpo-s.json');
const rows = (success: number[]): MetricRow[] =>
  success.map((v, iteration) => ({ iteration, 'rollout/successRate': v }));

describe('advantage words', () => {
  it('follow the recorded advantage switch, not the word GRPO', () => {
    // StarPO here is GRPO (group-normalised); StarPO-S runs PPO's critic.
    expect(starpo.meta.config.advantage).toBe('grpo');
    expect(advantageWords(starpo.meta.config)).toContain('normalised within its group of 16 rollouts');
    expect(starpoS.meta.config.advantage).toBe('gae');
    expect(advantageWords(starpoS.meta.config)).not.toMatch(/GRPO|normalised within its group/);
    expect(advantageWords(starpoS.meta.config)).toContain('critic');
  });
});

describe('success stretch', () => {
  it('invites to watch a rise only where success rises', () => {
    expect(watchWords(successStretch(rows([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]), 6))).toMatch(
      /^Watch success rise/,
    );
    const falling = watchWords(successStretch(rows([0.6, 0.5, 0.4, 0.3, 0.2, 0.1]), 6));
    expect(falling).not.toContain('rise');
    expect(falling).toContain('falls');
    expect(watchWords(successStretch(rows([0.3, 0.31, 0.3, 0.3, 0.31, 0.3]), 6))).toContain('wander');
  });

  it('on the shipped recording says what its first stretch does', () => {
    const p = points(starpo);
    const s = successStretch(starpo.rows, p.warningAt);
    const first = meanOver(starpo.rows, 'rollout/successRate', 0, 2);
    const last = meanOver(starpo.rows, 'rollout/successRate', p.warningAt - 2, p.warningAt);
    expect(s.trend).toBe(trend(first, last));
    if (s.trend !== 'rose') expect(watchWords(s)).not.toContain('rise');
  });
});

describe('metric changes', () => {
  it('call a change under 10% "hardly changed", not evidence', () => {
    expect(changeWords(0.354, 0.353)).toBe('0.354 → 0.353, hardly changed');
    expect(changeWords(1.24, 0.535)).toBe('1.24 → 0.535, fell');
    expect(changeWords(undefined, 0.3)).toBe('not measured in both stretches');
  });

  it('report a sparse MI by the iteration it was measured at', () => {
    const p = points(starpo);
    const first = firstMeasured(starpo.rows, 'reasoning/mi');
    const now = latestBefore(starpo.rows, 'reasoning/mi', p.warningAt);
    expect(first?.iteration).toBe(0);
    // MI every 10 iterations: the newest measurement before the warning is the last tenth before it.
    expect(now?.iteration).toBe(Math.floor((p.warningAt - 1) / 10) * 10);
    expect(latestBefore(starpo.rows, 'reasoning/mi', 30)?.iteration).toBe(20);
  });
});

describe('late thinking', () => {
  it('is a failed episode before the pause', () => {
    const p = points(starpo);
    const i = lateFailure(starpo.samples, p.collapseAt);
    expect(i).not.toBeNull();
    const s = starpo.samples[i as number];
    expect(s?.success).toBe(false);
    expect(s?.iteration).toBeLessThan(p.collapseAt);
    // No failed sample comes later before the pause.
    expect(
      starpo.samples.some(
        (x) => !x.success && x.iteration > (s?.iteration ?? 0) && x.iteration < p.collapseAt,
      ),
    ).toBe(false);
  });
});

describe('a run the detector did not flag', () => {
  it('says what its success did, from the warm-up mean to the best window and the end', () => {
    const rows = [0.1, 0.2, 0.3, 0.2, 0.2, 0.25].map((s, iteration) => ({
      iteration,
      'rollout/successRate': s,
    })) as MetricRow[];
    // Warm-up mean (0.1 + 0.2 + 0.3 + 0.2 + 0.2) / 5 = 0.2.
    expect(noTrapWords(rows, { echoTrap: false, peakSuccess: 0.244, finalSuccess: 0.106 })).toBe(
      'No echo trap is not the same as holding: the rule needs a rise before a fall. Its success went from 20% over the first 5 iterations to a best 5-iteration window of 24%, and ended at 11%.',
    );
    expect(noTrapWords(rows, { echoTrap: true, peakSuccess: 0.5, finalSuccess: 0.1 })).toBe('');
    expect(noTrapWords(rows, null)).toBe('');
  });

  it('is not said of the shipped recordings: both are trapped on seed 303', () => {
    expect(starpo.meta.summary).toMatchObject({ echoTrap: true, collapseIteration: 122 });
    expect(starpoS.meta.summary).toMatchObject({ echoTrap: true, collapseIteration: 184 });
    expect(noTrapWords(starpoS.rows, starpoS.meta.summary)).toBe('');
  });
});

describe('the described experiment', () => {
  it('maps each recording to the preset it was made with', () => {
    expect(presetFor(starpo.meta.config)).toBe('echo-trap');
    // StarPO-S at the same setting, steps matched: round 12's s-both arm.
    expect(presetFor(starpoS.meta.config)).toBe('stable');
    expect(presetFor({ ...starpo.meta.config, lr: 0.01 })).toBeNull();
  });
});
