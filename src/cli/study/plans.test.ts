// The rounds on record are plans: every plan under results/ parses; rounds 9 and 10 and the Bandit
// re-measurement plan exactly the runs they stored (same configs, so `round run` would make none
// of them again; round 9's s-samples arm has 4 study seeds still to run, as its report says); and
// nothing under results/ is a shell script or names a machine path.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWarningRates, shownInBanner } from '../../core/metrics/warningRates.js';
import { finishedRuns } from './calibrate.js';
import { loadPlan } from './plan.js';
import { roundStatus } from './roundRunner.js';
import { warningRatesOf } from './warnings.js';

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(p)));
    else out.push(p);
  }
  return out;
}

const opts = { jobs: 1, codeRoot: '.' };

describe('the rounds on record', () => {
  it('are plans whose planned runs are the stored ones', async () => {
    const status = async (round: string) =>
      (await roundStatus(await loadPlan(join('results/echo-trap', round, 'plan.yaml')), opts)).filter(
        (s) => s.done !== s.planned,
      );
    expect(await status('round10-frozenlake')).toEqual([]);
    expect(await status('bandit-shared')).toEqual([]);
    expect(await status('round9')).toEqual([
      { batch: 'batch (after confirmation)', cell: 'study-s-samples', done: 8, planned: 12 },
    ]);
  }, 60_000);

  it('every plan parses, and no shell script or machine path is left under results/', async () => {
    const all = await files('results');
    const plans = all.filter((f) => f.endsWith('plan.yaml'));
    expect(plans.length).toBeGreaterThanOrEqual(4);
    for (const p of plans) await loadPlan(p);
    expect(all.filter((f) => f.endsWith('.sh'))).toEqual([]);
    for (const f of all.filter((x) => /\.(json|md|yaml|txt)$/.test(x) && !x.includes('/seed-'))) {
      const text = await readFile(f, 'utf8');
      expect(text, f).not.toMatch(/\/(work|root|home|tmp)\//);
    }
  }, 60_000);

  it('the shipped warning record is round 12’s (the echo-trap preset’s cell), as its runs give it today', async () => {
    const shipped = parseWarningRates(JSON.parse(await readFile('public/study/warnings.json', 'utf8')));
    expect(shipped.source).toMatch(/^Round 12/);
    const also = ['results/echo-trap/round11/confirm-frozen'];
    const made = await warningRatesOf('results/echo-trap/round12', shipped.source, {
      cell: 'frozen',
      dirs: also,
    });
    expect(made.rates).toEqual(shipped.rates);
    // 16 frozen runs at the cell's own shape: round 12's frozen arm and round 11's confirmation
    // control. No arm held as a learner that holds must, so none counts as one.
    expect(shipped.rates.every((r) => r.frozenRuns === 16 && r.holdRuns === 0)).toBe(true);
    // The banner shows only what fired in at most 1 of the 16 frozen runs.
    for (const r of shipped.rates.filter(shownInBanner)) expect(r.frozenFired).toBeLessThanOrEqual(1);
    expect(shipped.rates.filter(shownInBanner).map((r) => r.signal)).not.toContain('heldOutDrop');
  }, 60_000);

  it('a study’s frozen arm and another round’s frozen runs count as frozen, not as trapped runs', async () => {
    const round12 = 'results/echo-trap/round12';
    const also = 'results/echo-trap/round11/confirm-frozen';
    const count = async (d: string) => (await finishedRuns(d, '.')).length;
    const withArm = await warningRatesOf(round12, 'x', { cell: 'frozen', dirs: [also] });
    const plain = await warningRatesOf(round12, 'x');
    const frozenHere = await count(join(round12, 'frozen'));
    for (const r of withArm.rates) expect(r.frozenRuns).toBe(frozenHere + (await count(also)));
    // Without naming it, the arm called "frozen" is read as a learner's: none of it counts as frozen.
    for (const r of plain.rates) expect(r.frozenRuns).toBe(0);
  }, 60_000);
});
