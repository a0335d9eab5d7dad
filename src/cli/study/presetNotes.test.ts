// The DoorKey presets' notes say what their stored runs did, and no more: every count and range a
// note gives is what the pre-registered detector makes of the runs it names (results/echo-trap),
// so a note cannot drift from its runs when either changes.
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/presets.js';
import { loadPlan } from './plan.js';
import { cellRunsOf, type ReportRun } from './reportRuns.js';
import { armVerdict } from './studyReport.js';

const note = (name: string) => PRESETS[name]?.summary ?? '';

/** How many of `runs` got each verdict. */
function counts(runs: readonly ReportRun[]) {
  const n = (v: string) => runs.filter((r) => r.verdict.verdict === v).length;
  return { runs: runs.length, trapped: n('trapped'), collapsed: n('collapsed'), held: n('held') };
}

/** The range of the held runs' last-10 success, as the notes write it ("0.55–0.64"). */
function heldRange(runs: readonly ReportRun[]): string {
  const last = runs.filter((r) => r.verdict.verdict === 'held').map((r) => r.final);
  return `${Math.min(...last).toFixed(2)}–${Math.max(...last).toFixed(2)}`;
}

describe('the presets’ notes against their runs', () => {
  it('echo-trap: round 11’s confirmation and its frozen control', async () => {
    const vanilla = counts(await cellRunsOf('results/echo-trap/round11', 'confirm-vanilla'));
    const frozen = counts(await cellRunsOf('results/echo-trap/round11', 'confirm-frozen'));
    expect(vanilla.runs).toBe(8);
    expect(note('echo-trap')).toContain(`${vanilla.trapped} of 8 were trapped`);
    expect(note('echo-trap')).toContain(`flagged in ${frozen.trapped} of 8`);
  }, 60_000);

  it('stable: round 12’s s-both arm', async () => {
    const runs = await cellRunsOf('results/echo-trap/round12', 's-both');
    const c = counts(runs);
    expect(c.runs).toBe(8);
    expect(note('stable')).toContain(
      `${c.trapped} trapped, ${c.collapsed} collapsed without a rise (the first action stopped depending on the state), ${c.held} held (success ${heldRange(runs)} over their last 10 iterations)`,
    );
  }, 60_000);

  it('stable-samples: round 12’s s-samples arm, every held run after a rise', async () => {
    const runs = await cellRunsOf('results/echo-trap/round12', 's-samples');
    const c = counts(runs);
    expect([c.runs, c.collapsed]).toEqual([8, 0]);
    const held = runs.filter((r) => r.verdict.verdict === 'held');
    expect(held.every((r) => (r.verdict.riseZ ?? 0) > r.verdict.z)).toBe(true);
    const heldOut = held.map((r) => r.heldOut?.[1] ?? Number.NaN);
    const range = `${Math.min(...heldOut).toFixed(2)}–${Math.max(...heldOut).toFixed(2)}`;
    expect(note('stable-samples')).toContain(
      `${c.trapped} trapped, ${c.held} held, each after a rise (success ${heldRange(runs)} over their last 10 iterations; greedy held-out at the end ${range}`,
    );
    const perIteration = runs.map((r) => r.secondsPerIteration ?? Number.NaN);
    expect(PRESETS['stable-samples']?.time).toContain(
      `${Math.min(...perIteration).toFixed(1)}–${Math.max(...perIteration).toFixed(1)} s an iteration`,
    );
  }, 60_000);

  it('the p-values the StarPO-S notes give are the study rule’s against vanilla', async () => {
    // Round 12's control arm repeats round 11's confirmation row for row (its report checks it).
    const vanilla = await cellRunsOf('results/echo-trap/round11', 'confirm-vanilla');
    const rule = (await loadPlan('results/echo-trap/round12/plan.yaml')).plan.study;
    if (!rule) throw new Error('round 12 has a study rule');
    const arm = async (name: string) =>
      armVerdict(name, await cellRunsOf('results/echo-trap/round12', name), vanilla, rule);
    const both = await arm('s-both');
    expect(note('stable')).toContain(`(here p = ${both.fisherP?.toFixed(2)})`);
    const samples = await arm('s-samples');
    expect(note('stable-samples')).toContain(`signed-rank p = ${samples.lastVsControl?.pGreater.toFixed(3)}`);
    expect(note('stable-samples')).toContain(`Fisher’s p = ${samples.fisherP?.toFixed(2)}`);
    expect([both.verdict, samples.verdict]).toEqual([
      'unclear at this many seeds',
      'unclear at this many seeds',
    ]);
  }, 60_000);
});
