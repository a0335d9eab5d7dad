// Screenshots of the main view as test artefacts (1280×800 and a narrow screen), and no layout
// shift while the charts grow.
import { expect, test } from '@playwright/test';
import { openTiny, points } from './helpers.js';

test('main view at 1280×800 during a run: charts keep their size as they grow', async ({ page }) => {
  await openTiny(page);
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const box = async () => {
    const boxes = [];
    for (const id of ['chart-success', 'chart-grad-norm', 'chart-time'])
      boxes.push(await page.getByTestId(id).boundingBox());
    return boxes;
  };
  const early = await box();
  const n = await points(page);
  await expect.poll(() => points(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(n + 4);
  expect(await box()).toEqual(early);
  await page.getByTestId('btn-pause').click();
  await expect(page.getByTestId('btn-start')).toHaveText('Resume');
  await page.screenshot({ path: test.info().outputPath('main-view-1280x800.png') });
  await page.screenshot({ path: test.info().outputPath('main-view-full.png'), fullPage: true });
});

test('narrow screen: regions stack and stay usable', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 900 });
  await page.goto('/');
  for (const id of ['setup-panel', 'transport-bar', 'charts-area', 'trajectory-viewer']) {
    await expect(page.getByTestId(id)).toBeVisible();
  }
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(420);
  await page.screenshot({ path: test.info().outputPath('main-view-narrow.png'), fullPage: true });
});
