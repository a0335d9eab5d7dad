// Runs that persist: a stopped run survives a reload and can be overlaid on a new run; a run
// cut off by a reload is listed as interrupted with its data; export → import gives the same
// series; a corrupted file is refused and the stored runs stay as they were.
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { openTiny, points, runTinyToStop } from './helpers.js';

async function exportText(page: Page, item: ReturnType<Page['getByTestId']>): Promise<string> {
  const download = page.waitForEvent('download');
  await item.getByTestId('run-export').click();
  return readFile(await (await download).path(), 'utf8');
}

test('a run persists across a reload, is overlaid on a new run, and an interrupted run keeps its data', async ({
  page,
}) => {
  await openTiny(page);
  const first = await runTinyToStop(page, 2);
  await page.reload();
  await page.getByTestId('tab-runs').click();
  const items = page.getByTestId('run-item');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-status', 'stopped');
  await expect(items.first()).toContainText(`it ${first}/`);

  // A new run, with the stored one overlaid.
  await page.getByTestId('preset-tiny').click();
  await page.getByTestId('backend-override').selectOption('wasm');
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const old = page.locator('[data-testid="run-item"][data-status="stopped"]');
  // The overlay loads its rows from IndexedDB before the box shows as ticked.
  await old.getByTestId('run-overlay').click();
  await expect(old.getByTestId('run-overlay')).toBeChecked();
  await expect(page.getByTestId('chart-success')).toHaveAttribute('data-runs', '2');
  await expect(page.getByTestId('chart-success').locator('.chart-legend')).toContainText('Success (train) ·');

  // Reload mid-run: the run is listed as interrupted, its rows kept.
  await page.reload();
  await page.getByTestId('tab-runs').click();
  const cut = page.locator('[data-testid="run-item"][data-status="interrupted"]');
  await expect(cut).toHaveCount(1);
  await cut.getByTestId('run-overlay').click();
  await expect(cut.getByTestId('run-overlay')).toBeChecked();
  await expect
    .poll(async () => Number(await page.getByTestId('chart-success').getAttribute('data-runs')))
    .toBe(2);
  await expect(page.getByTestId('chart-success').locator('.chart-legend b').first()).toBeVisible();
});

test('export then import gives the same series; a corrupted file is refused and nothing changes', async ({
  page,
}) => {
  await openTiny(page);
  await runTinyToStop(page, 2);
  await page.getByTestId('tab-runs').click();
  const original = await exportText(page, page.getByTestId('run-item').first());
  const exported = JSON.parse(original);
  expect(exported.format).toBe('starpo-run');
  expect(exported.rows.length).toBeGreaterThanOrEqual(2);
  expect(exported.checkpoint).not.toBeNull();

  await page.getByTestId('import-file').setInputFiles({
    name: 'run.json',
    mimeType: 'application/json',
    buffer: Buffer.from(original),
  });
  await expect(page.getByTestId('run-item')).toHaveCount(2);
  await expect(page.getByTestId('notice')).toHaveAttribute('data-kind', 'info');
  const imported = page.locator('[data-testid="run-item"][data-run-id^="import-"]');
  const again = JSON.parse(await exportText(page, imported));
  expect(again.rows).toEqual(exported.rows);
  expect(again.events).toEqual(exported.events);
  expect(again.meta.config).toEqual(exported.meta.config);
  expect(again.checkpoint.blobBase64).toBe(exported.checkpoint.blobBase64);

  // Corrupted: cut in half. Refused with a message; the two runs are untouched.
  await page.getByTestId('import-file').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(original.slice(0, original.length / 2)),
  });
  await expect(page.getByTestId('notice')).toHaveAttribute('data-kind', 'error');
  await expect(page.getByTestId('notice')).toContainText('broken.json was refused');
  // Valid JSON with a bad value is refused too, naming the field.
  const bad = JSON.parse(original);
  bad.meta.config.lr = 'fast';
  await page.getByTestId('import-file').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(bad)),
  });
  await expect(page.getByTestId('notice')).toContainText('lr');
  await expect(page.getByTestId('run-item')).toHaveCount(2);
  const still = JSON.parse(
    await exportText(page, page.locator('[data-testid="run-item"]:not([data-run-id^="import-"])')),
  );
  expect(still.rows).toEqual(exported.rows);
});
