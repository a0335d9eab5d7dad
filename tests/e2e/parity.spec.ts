// Parity (issue 17): the browser, as a person uses it — the built app, the shipped base models
// from public/models (no route mocking), a preset button, Iterations 2, Backend wasm, Start,
// then Export — writes the same metric rows as `npm run starpo -- train --preset <same>` on
// WASM in Node: counts exactly, floats to 1e-6 relative; time, memory and throughput keys aside.
// On 2 or more cores both run a critic (the PPO presets') in a worker of its own (issue 40; the
// serial schedule's numbers against it: workers/node/nodeCritic.test.ts). The echo-trap page run
// also gives the recorded one-worker run of seed 303 to the bit: the 1e-6 against a CLI run on the
// same two-worker schedule could not see a split of each turn that moved bits (issue 47's padding bug).
// One preset per kind of env: MiniGrid (echo-trap), a RAGEN env (bandit-starpo), WebShop-lite
// (webshop-pool, the preset the WebShop learning test runs: GRPO on a fixed pool of goals, with
// Groups 1 and Group size 4 typed into the form and given as flags, the same edits on both
// sides: at the preset's 8 × 4 shopping episodes of up to 9 turns an iteration takes ~10 s on
// 2 cores, and the browser and the CLI run side by side).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page, test } from '@playwright/test';
import { readRecordRows } from '../../src/cli/runRecords.js';
import { defaultConfig } from '../../src/core/config.js';
import { isMachineKey } from '../../src/core/metrics/keys.js';
import { applyPreset } from '../../src/core/presets.js';
import { usesCritic } from '../../src/core/rl/algorithms.js';

const run = promisify(execFile);
// Two iterations: the second rolls out with the weights the first's update wrote.
const ITERATIONS = 2;

type Row = Record<string, number>;

/** The same edits, typed into the form (field key) and given as flags: [key, flag, value]. */
const EDITS: Record<string, [string, string, string][]> = {
  'webshop-pool': [
    ['groups', 'groups', '1'],
    ['groupSize', 'group-size', '4'],
  ],
};

/** The CLI's rows of `preset` (at its own seed unless `seed` is given, as the page starts it). */
async function cliRows(preset: string, seed?: number): Promise<Row[]> {
  const out = await mkdtemp(join(tmpdir(), `starpo-parity-${preset}-`));
  await run(
    'npx',
    [
      'tsx',
      'src/cli/main.ts',
      'train',
      '--preset',
      preset,
      '--iters',
      String(ITERATIONS),
      ...(seed === undefined ? [] : ['--seed', String(seed)]),
    ]
      .concat((EDITS[preset] ?? []).flatMap(([, flag, v]) => [`--${flag}`, v]))
      .concat(['--backend', 'wasm', '--out', out, '--quiet']),
    { timeout: 900_000 },
  );
  return readRecordRows<Row>(out, 'metrics.jsonl');
}

async function browserRows(page: Page, preset: string): Promise<Row[]> {
  await page.goto('/');
  await page.getByTestId(`preset-${preset}`).click();
  await page.getByTestId('field-iterations').fill(String(ITERATIONS));
  for (const [key, , v] of EDITS[preset] ?? []) await page.getByTestId(`field-${key}`).fill(v);
  await page.getByTestId('backend-override').selectOption('wasm');
  await page.getByTestId('btn-start').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 600_000 });
  // The page's schedule, as the status line says it: wherever the machine has 2 cores for the run
  // (the CLI decides the same way) a second worker takes the critic, or for a run without one
  // (GRPO) half of each turn’s sampling, half the reference scoring and the measurements.
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const critic = usesCritic(applyPreset(defaultConfig(), preset));
  const second = critic
    ? /^2 workers: the critic beside/
    : /^2 workers: half of each turn’s sampling, half the reference scoring/;
  await expect(page.getByTestId('run-schedule')).toHaveText(cores >= 2 ? second : /^1 worker/);
  await page.getByTestId('tab-runs').click();
  const item = page.getByTestId('run-item').first();
  const download = page.waitForEvent('download');
  await item.getByTestId('run-export').click();
  const file = JSON.parse(await readFile(await (await download).path(), 'utf8')) as { rows: Row[] };
  return file.rows;
}

function expectSameRows(browser: Row[], cli: Row[]): void {
  expect(browser.length).toBe(ITERATIONS);
  expect(cli.length).toBe(ITERATIONS);
  for (let i = 0; i < ITERATIONS; i++) {
    const b = browser[i] as Row;
    const c = cli[i] as Row;
    const keys = (r: Row) =>
      Object.keys(r)
        .filter((k) => !isMachineKey(k))
        .sort();
    expect(keys(b), `iteration ${i}: metric keys`).toEqual(keys(c));
    for (const k of keys(c)) {
      const [x, y] = [b[k] as number, c[k] as number];
      if (Number.isInteger(y) && Number.isInteger(x)) expect(x, `iteration ${i} ${k}`).toBe(y);
      else
        expect(Math.abs(x - y), `iteration ${i} ${k}: ${x} vs ${y}`).toBeLessThanOrEqual(
          1e-6 * Math.max(1, Math.abs(y)),
        );
    }
  }
}

/** Round 11's confirmation run of seed 303: the echo-trap preset's default, recorded on one worker. */
const RECORDED_303 = 'results/echo-trap/round11/confirm-vanilla/custom/starpo-grpo/seed-303';

/** Every stored key but the machine's, equal to the bit (keys logged since are not in the stored rows). */
function expectStoredRows(browser: Row[], stored: Row[]): void {
  for (let i = 0; i < browser.length; i++) {
    const s = stored[i] as Row;
    for (const k of Object.keys(s).filter((key) => !isMachineKey(key)))
      expect((browser[i] as Row)[k], `iteration ${i} ${k} against the recorded run`).toBe(s[k]);
  }
}

for (const preset of ['echo-trap', 'bandit-starpo', 'webshop-pool']) {
  test(`the ${preset} preset gives the CLI's metric rows in the browser (WASM, the preset's seed, ${ITERATIONS} iterations)`, async ({
    page,
  }) => {
    test.setTimeout(1_500_000);
    const [cli, browser] = await Promise.all([cliRows(preset), browserRows(page, preset)]);
    expectSameRows(browser, cli);
    // The page as loaded is the recorded run of seed 303 (one worker, CLI): its rows to the bit,
    // whatever the page's schedule (a split of each turn over two workers must not move a bit).
    if (preset === 'echo-trap')
      expectStoredRows(browser, await readRecordRows<Row>(RECORDED_303, 'metrics.jsonl'));
  });
}

// Seeds side by side as a person uses it: the page as loaded (the echo-trap preset, the shipped
// DoorKey base, WASM), 2 seeds with a frozen-control lane each. Every lane reaches "finished"
// (lanes beyond the logical cores minus one wait as queued), the group says "k of 2" with its
// interval and the frozen control's count, every lane's success is on the overlaid chart, each
// lane lands in the Runs tab, and the group's export holds the two learners' rows, which are the
// two CLI runs'.
test(`a 2-seed group side by side with frozen controls gives the two CLI runs' metric rows and is stored (echo-trap, WASM, ${ITERATIONS} iterations)`, async ({
  page,
}) => {
  test.setTimeout(1_500_000);
  const browser = async (): Promise<Map<number, Row[]>> => {
    await page.goto('/');
    await page.getByTestId('field-iterations').fill(String(ITERATIONS));
    await page.getByTestId('backend-override').selectOption('wasm');
    await page.getByTestId('btn-fanout').click();
    await page.getByTestId('fanout-seeds').fill('2');
    await page.getByTestId('fanout-frozen').check();
    // The length comes from the setup, in view and changeable.
    await expect(page.getByTestId('fanout-iterations')).toHaveValue(String(ITERATIONS));
    await expect(page.getByTestId('fanout-start')).toHaveText('Start 4 runs');
    await expect(page.getByTestId('fanout-start')).toBeEnabled({ timeout: 60_000 });
    await page.getByTestId('fanout-start').click();
    const lanes = page.getByTestId('fanout-lane');
    await expect(lanes).toHaveCount(4);
    // While the group runs, the main Start waits and the group has its own Stop.
    await expect(page.getByTestId('fanout-stop')).toBeVisible();
    await expect(page.getByTestId('btn-start')).toBeDisabled();
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    if (Math.max(1, cores - 1) < 4)
      await expect(page.locator('[data-testid="fanout-lane"][data-state="queued"]').first()).toBeVisible();
    for (let i = 0; i < 4; i++)
      await expect(lanes.nth(i)).toHaveAttribute('data-state', 'finished', { timeout: 900_000 });
    await expect(page.locator('[data-testid="fanout-lane"][data-frozen="true"]')).toHaveCount(2);
    await expect(page.getByTestId('fanout-count')).toHaveAttribute('data-finished', '2');
    // A few iterations are too few for the rule: every lane says so, and none is counted.
    await expect(page.getByTestId('fanout-short')).toBeVisible();
    await expect(page.locator('[data-testid="fanout-lane"][data-verdict="too-short"]')).toHaveCount(4);
    await expect(page.getByTestId('fanout-count')).toHaveAttribute('data-judged', '0');
    await expect(page.getByTestId('fanout-count')).toContainText('4 finished lanes are too short to judge');
    await expect(page.getByTestId('fanout-count')).toContainText('the frozen control in');
    await expect(page.getByTestId('fanout-stop')).toHaveCount(0);
    await expect(page.getByTestId('fanout-panel').getByTestId('chart-success')).toBeVisible();
    await page.getByTestId('fanout-close').click();
    await page.getByTestId('tab-runs').click();
    await expect(page.getByTestId('run-item')).toHaveCount(4);
    // The group is stored as a sweep: its export holds every lane's rows.
    await page.getByTestId('btn-sweeps').click();
    const download = page.waitForEvent('download');
    await page.getByTestId('sweep-export').first().click();
    const bundle = JSON.parse(await readFile(await (await download).path(), 'utf8')) as {
      runs: { path: string; config: { seed: number; lr: number }; metrics: Row[] }[];
    };
    expect(bundle.runs).toHaveLength(4);
    return new Map(bundle.runs.filter((r) => r.config.lr > 0).map((r) => [r.config.seed, r.metrics]));
  };
  // The group runs the setup's seed and the next: the echo-trap preset's 303 and 304.
  const seed = applyPreset(defaultConfig(), 'echo-trap').seed;
  const [cli1, cli2, group] = await Promise.all([
    cliRows('echo-trap', seed),
    cliRows('echo-trap', seed + 1),
    browser(),
  ]);
  expectSameRows(group.get(seed) ?? [], cli1);
  expectSameRows(group.get(seed + 1) ?? [], cli2);
});
