// The transport on a tiny run: charts gain points, pause stops them, step adds exactly one
// iteration, resume continues, stop ends the run; and the page answers clicks while training
// runs in the workers.
import { expect, test } from '@playwright/test';
import { iteration, openTiny, points } from './helpers.js';

test('start, pause, step one iteration, resume, stop', async ({ page }) => {
  await openTiny(page);
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('untrained-base')).toBeVisible();

  await page.getByTestId('btn-pause').click();
  await expect(page.getByTestId('btn-start')).toHaveText('Resume');
  await expect(page.getByTestId('btn-step')).toBeEnabled();
  const paused = await points(page);
  expect(await iteration(page)).toBe(paused);
  await page.waitForTimeout(1500);
  expect(await points(page)).toBe(paused);

  // A live setting changes mid-run and leaves a marker on the charts; others are locked.
  await expect(page.getByTestId('field-groups')).toBeDisabled();
  await page.getByTestId('field-temperature').fill('0.9');
  await expect(page.getByTestId('chart-success').locator('.marker-legend')).toContainText('1 marker');

  await page.getByTestId('btn-step').click();
  await expect.poll(() => points(page)).toBe(paused + 1);
  await expect(page.getByTestId('btn-step')).toBeEnabled();
  await page.waitForTimeout(800);
  expect(await points(page)).toBe(paused + 1);
  expect(await iteration(page)).toBe(paused + 1);

  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 30_000 }).toBeGreaterThan(paused + 1);

  // The UI thread stays responsive while training: tab clicks are handled (how fast is the
  // bench's business, not a test's).
  for (const id of ['tab-play', 'tab-trajectory']) {
    await page.getByTestId(id).click();
    await expect(page.getByTestId(id)).toHaveAttribute('aria-selected', 'true');
  }
  await expect(page.getByTestId('viewer-body')).toBeVisible();

  await page.getByTestId('btn-stop').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 30_000 });
  const final = await points(page);
  await page.waitForTimeout(800);
  expect(await points(page)).toBe(final);
  await page.screenshot({ path: test.info().outputPath('main-view-after-run.png') });
});
