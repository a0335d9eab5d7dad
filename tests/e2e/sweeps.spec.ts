// In-browser sweeps: a 2 × 2 sweep with 2 seeds on the tiny preset (1 iteration a run) runs to
// the end in the train worker and fills the heatmap; a cell opens its runs overlaid; the export
// is a bundle in the CLI's sweep format; a real CLI sweep (tests/fixtures/cli-sweep.json, made
// by tests/fixtures/make-cli-sweep.ts) imports and renders, and a cell's comparison replaces the
// dialog and returns to it.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { openTiny } from './helpers.js';

test('a 2 × 2 sweep with 2 seeds completes, fills the heatmap and exports in the CLI format', async ({
  page,
}) => {
  await openTiny(page);
  await page.getByTestId('btn-sweeps').click();
  // The proposed step sizes are ones the lr help says learn, and with nothing run yet the
  // dialog says it cannot tell the time.
  await expect(page.getByTestId('sweep-axis1-values')).toHaveValue('0.0001, 0.0005');
  await expect(page.getByTestId('sweep-time')).toContainText('Time unknown');
  await page.getByTestId('sweep-axis1-key').selectOption('lr');
  await page.getByTestId('sweep-axis1-values').fill('0.001, 0.01');
  await page.getByTestId('sweep-axis2-key').selectOption('temperature');
  await page.getByTestId('sweep-axis2-values').fill('0.5, 1');
  await page.getByTestId('sweep-seeds').fill('2');
  await page.getByTestId('sweep-iterations').fill('1');
  await expect(page.getByTestId('sweep-plan')).toHaveAttribute('data-runs', '8');
  await page.getByTestId('sweep-start').click();
  await expect(page.getByTestId('sweep-progress')).toBeVisible();
  await expect(page.getByTestId('sweep-item').first()).toHaveAttribute('data-status', 'finished', {
    timeout: 100_000,
  });

  const cells = page.getByTestId('heatmap-cell');
  await expect(cells).toHaveCount(4);
  for (let i = 0; i < 4; i++) await expect(cells.nth(i)).toHaveAttribute('data-runs', '2');
  await expect(page.getByTestId('sweep-row')).toHaveCount(8);
  await expect(page.getByTestId('sweep-plot-lr').getByTestId('sweep-plot-point')).toHaveCount(8);

  // Sorting by final success orders the rows.
  await page.getByTestId('sweep-sort-final').click();
  const finals = await page
    .getByTestId('sweep-row')
    .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-final'))));
  expect(finals).toEqual([...finals].sort((a, b) => a - b));

  await cells.first().click();
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-runs', '2');
  await expect(page.getByTestId('compare-view').locator('[data-key="seed"]')).toBeVisible();
  await page.getByTestId('compare-close').click();

  const download = page.waitForEvent('download');
  await page.getByTestId('sweep-export').first().click();
  const bundle = JSON.parse(await readFile(await (await download).path(), 'utf8'));
  expect(bundle.format).toBe('starpo-sweep-bundle');
  expect(bundle.table.runs).toHaveLength(8);
  expect(bundle.runs.map((r: { path: string }) => r.path)).toContain(
    'lr=0.01,temperature=0.5/starpo-grpo/seed-2',
  );
  expect(bundle.runs[0].metrics).toHaveLength(1);

  // Every sweep run is also in the Runs tab.
  await page.getByTestId('sweeps-close').click();
  await page.getByTestId('tab-runs').click();
  await expect(page.getByTestId('run-item')).toHaveCount(8);
  await expect(page.getByTestId('run-name').first()).toHaveValue(/lr=.*temperature=/);
});

test('a CLI sweep bundle imports and renders', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('btn-sweeps').click();
  await page.getByTestId('sweep-import').setInputFiles('tests/fixtures/cli-sweep.json');
  await expect(page.getByTestId('notice')).toHaveAttribute('data-kind', 'info');
  await expect(page.getByTestId('sweep-title')).toHaveText('CLI sweep fixture');
  const cells = page.getByTestId('heatmap-cell');
  await expect(cells).toHaveCount(2);
  await expect(cells.first()).toHaveAttribute('data-runs', '2');
  await expect(page.getByTestId('sweep-row')).toHaveCount(4);
  await cells.nth(1).click();
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-runs', '2');
  await expect(page.getByTestId('compare-view').getByTestId('chart-success')).toHaveAttribute(
    'data-runs',
    '2',
  );
  // The comparison takes the sweeps dialog's place (not a modal on a modal); closing goes back.
  await expect(page.getByTestId('sweeps-dialog')).toHaveCount(0);
  await page.getByTestId('compare-close').click();
  await expect(page.getByTestId('compare-view')).toHaveCount(0);
  await expect(page.getByTestId('sweeps-dialog')).toBeVisible();
  await expect(page.getByTestId('sweep-title')).toHaveText('CLI sweep fixture');
});
