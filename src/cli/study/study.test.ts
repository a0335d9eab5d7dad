import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStudyBands } from '../../core/metrics/studyBands.js';
import { PRESETS } from '../../core/presets.js';
import { sweepCommand } from '../commands/sweep.js';
import { runCommand, TINY_ROLLOUT_FLAGS } from '../testing.js';
import { baseLookup } from '../trainConfig.js';
import { planStudy, studyPreset } from './study.js';
import { lineChartSvg } from './svg.js';

const TINY = [
  '--base',
  'random',
  '--backend',
  'wasm',
  '--iters',
  '2',
  ...TINY_ROLLOUT_FLAGS,
  '--eval-every',
  '1',
  '--eval-episodes',
  '2',
  '--mi-every',
  '0',
  '--steps-per-iter',
  '1',
];

describe('echo-trap study', () => {
  it('runs a tiny study, writes results, tables and figures, resumes, and detects a changed config', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-study-'));
    const out = join(dir, 'results');
    const docs = join(dir, 'docs', 'echo-trap.md');
    const bands = join(dir, 'public', 'study', 'echo-trap.json');
    const args = [
      '--study',
      'echo-trap-v1',
      '--envs',
      'minigrid/Empty-5x5',
      '--algos',
      'starpo-ppo,starpo-s',
      '--seeds',
      '2',
      '--ablations',
      'false',
      '--out',
      out,
      '--docs',
      docs,
      '--bands',
      bands,
      ...TINY,
    ];
    const first = await runCommand(sweepCommand, args);
    expect(first.stderr).toMatch(/sweep: 8 runs, 0 already done, 8 to run/);
    expect(first.code).toBe(0);
    const md = await readFile(docs, 'utf8');
    expect(md).toMatch(/8 of 8 planned runs have finished/);
    expect(md).toMatch(/### Main comparison: optimizer steps matched/);
    expect(md).toMatch(/\| starpo-ppo \| 2 \| 1\.0 \|/);
    expect(md).toMatch(/### Paper-style: steps not matched/);
    expect(md).toMatch(/\| think MI drop \|/);
    const figures = await readdir(join(dir, 'docs', 'figures'));
    expect(figures).toContain('minigrid-empty-5x5-rollout-successRate.svg');
    const svg = await readFile(
      join(dir, 'docs', 'figures', 'minigrid-empty-5x5-rollout-successRate.svg'),
      'utf8',
    );
    expect(svg).toMatch(/^<svg/);
    expect(svg).toMatch(/starpo-s \(2 seeds\)/);
    const summary = JSON.parse(
      await readFile(
        join(out, 'minigrid-empty-5x5', 'matched', 'starpo-s', 'seed-2', 'summary.json'),
        'utf8',
      ),
    );
    expect(summary).toMatchObject({ algo: 'starpo-s', seed: 2, completed: true });

    // The playground's band file: valid under the shared schema, both families, 2 seeds each,
    // the mean and envelope (4 significant digits) of the two seeds' own metrics.jsonl values.
    const bandFile = parseStudyBands(JSON.parse(await readFile(bands, 'utf8')));
    const env = bandFile.envs['minigrid/Empty-5x5'];
    expect(Object.keys(env ?? {}).sort()).toEqual(['starpo-ppo', 'starpo-s']);
    expect(env?.['starpo-s']).toMatchObject({ seeds: 2, variant: 'matched' });
    const ppo = env?.['starpo-ppo'];
    expect(ppo).toMatchObject({
      seeds: 2,
      variant: 'matched',
      config: { groups: 2, groupSize: 2, stepsPerIteration: 1, iterations: 2 },
    });
    expect(Object.keys(ppo?.metrics ?? {})).toEqual(
      expect.arrayContaining([
        'rollout/successRate',
        'rollout/inGroupRewardStd',
        'actor/entropy',
        'eval/successRate',
      ]),
    );
    const seedRows = await Promise.all(
      [1, 2].map(async (seed) =>
        (
          await readFile(
            join(out, 'minigrid-empty-5x5', 'matched', 'starpo-ppo', `seed-${seed}`, 'metrics.jsonl'),
            'utf8',
          )
        )
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, number>),
      ),
    );
    const sig4 = (v: number) => Number(v.toPrecision(4));
    for (const key of ['rollout/successRate', 'actor/entropy']) {
      const band = ppo?.metrics[key];
      expect(band?.iteration).toEqual(seedRows[0]?.map((r) => r.iteration));
      band?.iteration.forEach((_, i) => {
        const [a, b] = seedRows.map((rows) => rows[i]?.[key] as number) as [number, number];
        expect([band.lo[i], band.mean[i], band.hi[i]]).toEqual([
          sig4(Math.min(a, b)),
          sig4((a + b) / 2),
          sig4(Math.max(a, b)),
        ]);
      });
    }

    const again = await runCommand(sweepCommand, args);
    expect(again.stderr).toMatch(/8 already done, 0 to run/);
    const changed = await runCommand(sweepCommand, [...args, '--lr', '0.004']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/different config/);
  }, 300_000);

  it('runs the arms study: each run names its arm, the report goes after its marker, report-only trains nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-arms-'));
    const out = join(dir, 'results');
    const docs = join(dir, 'echo-trap.md');
    await writeFile(docs, '# The echo trap\n\n## 1. The rule\n\nkept as it is\n');
    const args = [
      ...['--study', 'echo-trap', '--envs', 'minigrid/Empty-5x5', '--arms', 'vanilla,s-samples,frozen'],
      ...['--seeds', '1', '--out', out, '--docs', docs, ...TINY],
    ];
    const first = await runCommand(sweepCommand, args);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/sweep: 3 runs, 0 already done, 3 to run/);
    // Laid out as a round directory: the confirmation's cells are vanilla's and frozen's.
    for (const [arm, cell, algo] of [
      ['vanilla', 'confirm-vanilla', 'starpo-ppo'],
      ['s-samples', 'study-s-samples', 'starpo-s'],
      ['frozen', 'confirm-frozen', 'starpo-ppo'],
    ] as const) {
      const summary = JSON.parse(
        await readFile(
          join(out, 'minigrid-empty-5x5', cell, 'custom', algo, 'seed-1', 'summary.json'),
          'utf8',
        ),
      ) as { arm?: string };
      expect(summary.arm).toBe(arm);
    }
    const md = await readFile(docs, 'utf8');
    expect(md).toMatch(/^# The echo trap\n\n## 1\. The rule\n\nkept as it is\n/);
    expect(md).toMatch(/<!-- study: generated by/);
    expect(md).toMatch(/## 10\. The second environment/);
    expect(md).toMatch(/### minigrid\/Empty-5x5: the study's arms, at the chosen cell/);
    expect(md).toMatch(/\| s-samples \| [01] of 1 /);
    const again = await runCommand(sweepCommand, [...args, '--report-only']);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toMatch(/sweep:/);
    expect(await readFile(docs, 'utf8')).toBe(md);
  }, 300_000);

  it('reports a stored run whose config lacks fields added since without rerunning it, and still refuses a changed value', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-study-'));
    const out = join(dir, 'results');
    const docs = join(dir, 'echo-trap.md');
    const args = [
      ...['--study', 'echo-trap-v1', '--envs', 'minigrid/Empty-5x5', '--algos', 'starpo-grpo'],
      ...['--seeds', '1', '--ablations', 'false', '--unmatched', 'false'],
      ...['--out', out, '--docs', docs, '--bands', join(dir, 'bands.json'), ...TINY],
    ];
    const first = await runCommand(sweepCommand, args);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/sweep: 1 runs, 0 already done, 1 to run/);
    const run = join(out, 'minigrid-empty-5x5', 'matched', 'starpo-grpo', 'seed-1');
    const stored = JSON.parse(await readFile(join(run, 'config.json'), 'utf8')) as Record<string, unknown>;
    // A run made before `lossAgg` and `groupStreams` existed: its config.json lacks both, and
    // today's defaults for them are what it ran with.
    expect([stored.lossAgg, stored.groupStreams, stored.lr]).toEqual([
      'token-mean',
      'shared',
      PRESETS['echo-trap']?.overrides.lr,
    ]);
    const { lossAgg: _a, groupStreams: _g, ...old } = stored;
    await writeFile(join(run, 'config.json'), JSON.stringify(old));
    const rows = await readFile(join(run, 'metrics.jsonl'), 'utf8');

    const again = await runCommand(sweepCommand, args);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/sweep: 1 runs, 1 already done, 0 to run/);
    expect(await readFile(join(run, 'metrics.jsonl'), 'utf8')).toBe(rows); // not rerun
    expect(JSON.parse(await readFile(join(run, 'config.json'), 'utf8'))).toEqual(old); // not rewritten
    expect(await readFile(docs, 'utf8')).toMatch(/1 of 1 planned runs have finished/);

    // The report alone: nothing planned or trained, the run reported, no config difference named.
    const report = await runCommand(sweepCommand, [...args, '--report-only']);
    expect(report.code).toBe(0);
    expect(report.stderr).toMatch(/report only/);
    expect(report.stderr).not.toMatch(/to run/);
    let md = await readFile(docs, 'utf8');
    expect(md).toMatch(/from the\n1 finished runs stored in/);
    expect(md).toMatch(/\| starpo-grpo \| 1 \|/);
    expect(md).toMatch(
      /\*\*Seeds: 1 per cell\.\*\* The study at power \(≥ 8 seeds per cell\) has not been run/,
    );
    expect(md).not.toMatch(/Stored configs beside/);
    expect(md).toContain(
      "Fields added after these runs were made, read at today's default: `groupStreams` shared (1 of 1); `lossAgg` token-mean (1 of 1);",
    );
    expect(await readFile(join(run, 'metrics.jsonl'), 'utf8')).toBe(rows);
    // The results directory's table: the stored run with today's verdict, in the sweep layout.
    const table = JSON.parse(await readFile(join(out, 'table.json'), 'utf8'));
    expect(table.runs).toHaveLength(1);
    expect(table.runs[0]).toMatchObject({
      preset: 'minigrid-empty-5x5/matched',
      algo: 'starpo-grpo',
      seed: 1,
    });
    expect(table.table).toMatchObject([
      { preset: 'minigrid-empty-5x5/matched', algo: 'starpo-grpo', runs: 1 },
    ]);

    // A changed value is still a changed config: refused by the run path, named by the report.
    await writeFile(join(run, 'config.json'), JSON.stringify({ ...old, lr: 0.001 }));
    const changed = await runCommand(sweepCommand, args);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/different config/);
    const named = await runCommand(sweepCommand, [...args, '--report-only']);
    expect(named.code).toBe(0);
    md = await readFile(docs, 'utf8');
    expect(md).toContain(
      `Stored configs beside what today's study would plan for the same cells: \`lr\` 0.001 where today's is ${PRESETS['echo-trap']?.overrides.lr} (1 of 1).`,
    );
  }, 300_000);

  it('plans RAGEN envs with the episode settings of their shipped base models', async () => {
    const envs = ['bandit/Bandit', 'frozenlake/FrozenLake-4x4', 'sokoban/Sokoban-6x6'];
    const runs = await planStudy({
      envs,
      algos: ['starpo-ppo'],
      seeds: [1],
      out: 'unused',
      docs: 'unused/echo-trap.md',
      jobs: 1,
      overrides: {},
      ablations: false,
      unmatched: false,
      baseLayer: (env) => baseLookup(undefined, undefined)(env, 'nano'),
    });
    const turns = runs.map((r) => [r.config.env, r.config.maxTurns, r.config.maxActionsPerTurn]);
    expect(turns).toEqual([
      ['bandit/Bandit', 1, 1],
      ['frozenlake/FrozenLake-4x4', 5, 2],
      ['sokoban/Sokoban-6x6', 5, 2],
    ]);
    for (const r of runs) expect([r.config.historyTurns, r.config.contextLength]).toEqual([1, 256]);
    // Each RAGEN env runs its own vanilla preset's budget; other envs the echo-trap preset's.
    const budget = runs.map((r) => [r.config.groups, r.config.groupSize, r.config.lr, r.config.temperature]);
    expect(budget).toEqual([
      [8, 8, 1e-3, 1],
      [8, 8, 1e-3, 1],
      [8, 8, 3e-4, 1],
    ]);
    expect(studyPreset('bandit/Bandit').name).toBe('bandit-starpo');
    expect(studyPreset('minigrid/DoorKey-5x5').name).toBe('echo-trap');
    expect(studyPreset('webshop/lite').name).toBe('webshop'); // its own vanilla preset
  });

  it('keeps the envs run before in the report and sets RAGEN envs beside the paper', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'starpo-study-'));
    const common = [
      ...['--out', join(dir, 'results'), '--docs', join(dir, 'echo-trap.md')],
      ...['--bands', join(dir, 'bands.json')],
    ];
    const rest = ['--seeds', '1', '--ablations', 'false', '--unmatched', 'false', ...common, ...TINY];
    const study = ['--study', 'echo-trap-v1', '--algos', 'starpo-grpo'];
    const a = await runCommand(sweepCommand, [...study, '--envs', 'minigrid/Empty-5x5', ...rest]);
    expect(a.code).toBe(0);
    const b = await runCommand(sweepCommand, [...study, '--envs', 'bandit/Bandit', ...rest]);
    expect(b.code).toBe(0);
    const md = await readFile(join(dir, 'echo-trap.md'), 'utf8');
    expect(md).toMatch(/2 of 2 planned runs have finished/);
    // This invocation's env first, then the one found in the results directory.
    expect(md.indexOf('## bandit/Bandit')).toBeGreaterThan(0);
    expect(md.indexOf('## minigrid/Empty-5x5')).toBeGreaterThan(md.indexOf('## bandit/Bandit'));
    expect(md).toMatch(
      /Settings \(steps matched\): the `bandit-starpo` preset's budget — 2 × 2 rollouts, 2 iterations/,
    );
    expect(md).toMatch(/### Beside the paper: Bandit/);
    expect(md).toMatch(/\| starpo-s \| ≈ 1\.0 at step 200 \| 0 \| not run \| – \| – \|/);
    expect(md).toMatch(
      /\*\*The paper's shape:\*\* PPO holds longer than GRPO; StarPO-S does not collapse\. \*\*Here:\*\* PPO longer than GRPO — not run \(needs starpo-ppo and starpo-grpo runs\); StarPO-S stable — not run\./,
    );
    expect(md).not.toMatch(/Beside the paper: Empty/);
  }, 300_000);

  it('draws a mean line and a band per series', () => {
    const rows = (k: number) => [0, 1, 2].map((i) => ({ iteration: i, 'rollout/successRate': 0.1 * i + k }));
    const svg = lineChartSvg('t', 'rollout/successRate', [
      { label: 'a', colour: '#f00', runs: [rows(0), rows(0.2)] },
    ]);
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    expect(svg.match(/<polygon/g)).toHaveLength(1);
    expect(svg).toMatch(/a \(2 seeds\)/);
  });
});
