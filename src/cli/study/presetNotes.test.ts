// The DoorKey presets' notes say what their stored runs did, and no more: every count and range a
// note gives is what the pre-registered detector makes of the runs it names (results/echo-trap),
// so a note cannot drift from its runs when either changes.
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/presets.js';
import { cellRunsOf, type ReportRun } from './reportRuns.js';

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
});
