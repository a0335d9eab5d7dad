// The round runner on a tiny plan in a throw-away git repository: it refuses a dirty tree and an
// uncommitted plan, runs stage 1, the nulls, stage 2, the pick and the confirmation, records the
// commit and the plan's hash in every run, keeps its pick, resumes as a no-op, and the report
// judges what it ran. The pick rule and the plan's checks by hand.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlan, parsePlan } from '../study/plan.js';
import { type CellScore, cellScore, rankCells } from '../study/roundPick.js';
import { writeRoundReport } from '../study/roundReport.js';
import { checkedCommit, runRound } from '../study/roundRunner.js';
import { runCommand } from '../testing.js';
import { roundCommand } from './round.js';

const PLAN = `
round: tiny
title: A tiny round
report: { docs: report.md, heading: Results }
shape:
  env: minigrid/Empty-5x5
  backend: wasm
  iters: 2
  groups: 2
  group-size: 2
  max-turns: 1
  max-tokens: 6
  context: 128
  eval-every: 0
  mi-every: 0
trapRule: { detector: pre-registered, z: 3 }
seeds: { tuning: [1], stage2: [2], confirmation: [301] }
cells:
  - { name: a, algo: starpo-grpo, flags: { lr: 1e-3 }, reason: one }
  - { name: b, algo: starpo-grpo, flags: { lr: 2e-3 }, reason: two }
pick: { stage2Cells: 1, rule: the most trapped }
confirmation:
  minTrapped: 1
  frozen: { name: confirm-frozen, algo: starpo-grpo, flags: { lr: 0 }, maxFlagged: 0, reason: frozen }
nulls:
  - { name: null-frozen, kind: frozen, algo: starpo-grpo, flags: { lr: 0 }, seeds: [101], maxFlagged: 0, after: stage1, reason: frozen null }
compute: seconds
`;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();
}

async function repoWithPlan(text = PLAN): Promise<{ dir: string; plan: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'starpo-round-'));
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.email', 't@t');
  git(dir, 'config', 'user.name', 't');
  await mkdir(join(dir, 'round'));
  const plan = join(dir, 'round', 'plan.yaml');
  await writeFile(plan, text);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'plan');
  return { dir, plan };
}

const score = (cell: string, trapped: number, collapsed: number, meanDrop: number, runs = 2): CellScore => ({
  cell,
  runs,
  trapped,
  collapsed,
  held: runs - trapped - collapsed,
  tooShort: 0,
  meanDrop,
});

describe('the pick rule', () => {
  it('prefers more trapped, then fewer collapsed without a rise, then the larger drop, then the name', () => {
    const ranked = rankCells([
      score('breaks-at-once', 1, 1, 0.5),
      score('rises-then-falls', 1, 0, 0.1),
      score('holds', 0, 0, 0.0),
      score('both-trapped', 2, 0, 0.2),
      score('same-but-later-name', 1, 0, 0.1),
    ]);
    expect(ranked.map((s) => s.cell)).toEqual([
      'both-trapped',
      'rises-then-falls',
      'same-but-later-name',
      'breaks-at-once',
      'holds',
    ]);
  });

  it('counts verdicts and the mean peak − last 10 of judged runs', () => {
    expect(
      cellScore('c', [
        { verdict: 'trapped', peak: 0.6, last: 0.1 },
        { verdict: 'collapsed', peak: 0.3, last: 0.1 },
        { verdict: 'too-short' },
      ]),
    ).toEqual({ cell: 'c', runs: 3, trapped: 1, collapsed: 1, held: 0, tooShort: 1, meanDrop: 0.35 });
  });
});

describe('the plan', () => {
  it('names what is wrong', () => {
    expect(() => parsePlan(PLAN.replace('z: 3', 'z: 2'), 'p.yaml')).toThrow(/trapRule.z is 2 but .* z 3/);
    expect(() => parsePlan(PLAN.replace('confirmation: [301]', 'confirmation: [1]'), 'p.yaml')).toThrow(
      /seed 1 is both a tuning and a confirmation seed/,
    );
    expect(() => parsePlan(PLAN.replace('name: b,', 'name: a,'), 'p.yaml')).toThrow(/"a" appears twice/);
    expect(() => parsePlan(PLAN.replace(/reason: one/, 'reason: ""'), 'p.yaml')).toThrow(/cells\.0\.reason/);
  });

  it('refuses a frozen control that is not at lr 0', () => {
    expect(parsePlan(PLAN, 'p.yaml').nulls[0]?.kind).toBe('frozen');
    const learningNull = PLAN.replace(
      'kind: frozen, algo: starpo-grpo, flags: { lr: 0 }',
      'kind: frozen, algo: starpo-grpo, flags: { lr: 1e-3 }',
    );
    expect(() => parsePlan(learningNull, 'p.yaml')).toThrow(
      /null "null-frozen" \(kind frozen\) is the frozen control but runs at lr 0\.001: set flags \{ lr: 0 \}/,
    );
    const noLr = PLAN.replace(
      'kind: frozen, algo: starpo-grpo, flags: { lr: 0 }',
      'kind: frozen, algo: starpo-grpo',
    );
    expect(() => parsePlan(noLr, 'p.yaml')).toThrow(/null-frozen.* runs at lr \(the default\)/);
    // The shape's lr counts where the cell sets none.
    expect(parsePlan(noLr.replace('  iters: 2', '  iters: 2\n  lr: 0'), 'p.yaml').nulls).toHaveLength(1);
    const learningConfirm = PLAN.replace(
      'name: confirm-frozen, algo: starpo-grpo, flags: { lr: 0 }',
      'name: confirm-frozen, algo: starpo-grpo, flags: { lr: 5e-4 }',
    );
    expect(() => parsePlan(learningConfirm, 'p.yaml')).toThrow(
      /confirmation\.frozen is the frozen control but runs at lr 0\.0005/,
    );
  });
});

describe('round run', () => {
  it('refuses a dirty tree and an uncommitted plan', async () => {
    const { dir, plan } = await repoWithPlan();
    const lp = await loadPlan(plan);
    expect(checkedCommit(lp, dir)).toMatch(/^[0-9a-f]{40}$/);
    await writeFile(join(dir, 'code.ts'), 'x');
    git(dir, 'add', 'code.ts');
    expect(() => checkedCommit(lp, dir)).toThrow(/uncommitted changes/);
    git(dir, 'commit', '-qm', 'code');
    await writeFile(plan, `${PLAN}\n# edited\n`);
    expect(() => checkedCommit(lp, dir)).toThrow(/not committed/);
  });

  it('runs the plan, records commit and hash, keeps its pick, resumes as a no-op and reports', async () => {
    const { dir, plan } = await repoWithPlan();
    const lp = await loadPlan(plan);
    const io = { stdin: process.stdin, stdout: process.stdout, stderr: { write: () => true } } as never;
    const pick = await runRound(lp, { jobs: 1, codeRoot: dir, base: 'random' }, io);
    expect(pick.stage2Cells).toHaveLength(1);
    expect(['a', 'b']).toContain(pick.chosen);
    const commit = git(dir, 'rev-parse', 'HEAD');
    const rd = join(dir, 'round');
    const run = join(rd, 'confirm-vanilla', 'custom', 'starpo-grpo', 'seed-301');
    const prov = JSON.parse(await readFile(join(run, 'provenance.json'), 'utf8'));
    expect(prov).toMatchObject({ commit, planHash: lp.hash, round: 'tiny' });
    const frozen = JSON.parse(
      await readFile(join(rd, 'confirm-frozen', 'custom', 'starpo-grpo', 'seed-301', 'config.json'), 'utf8'),
    );
    expect(frozen.lr).toBe(0);
    expect(
      JSON.parse(
        await readFile(join(rd, 'null-frozen', 'custom', 'starpo-grpo', 'seed-101', 'config.json'), 'utf8'),
      ).seed,
    ).toBe(101);
    // The pick is kept: a second run reads it and makes no run.
    const before = await readFile(join(rd, 'pick.json'), 'utf8');
    const status = await runCommand(roundCommand, ['status', plan, '--base', 'random']);
    expect(status.stdout).toMatch(/confirm-vanilla\s+1\/1/);
    await runRound(lp, { jobs: 1, codeRoot: dir, base: 'random' }, io);
    expect(await readFile(join(rd, 'pick.json'), 'utf8')).toBe(before);
    // Two-iteration runs are too short to judge; the report says so and judges the confirmation.
    const md = await writeRoundReport(lp, join(dir, 'docs.md'));
    expect(md).toMatch(/\| 1 \| too short to judge \|/);
    expect(md).toMatch(/\*\*not confirmed\*\*/);
    expect(await readFile(join(dir, 'docs.md'), 'utf8')).toMatch(/<!-- end of round tiny results -->/);
  }, 120_000);
});
