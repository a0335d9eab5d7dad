// Seeds side by side as a person uses it: the page as loaded (the echo-trap preset, the shipped
// DoorKey base, WASM), 2 seeds with a frozen-control lane each for 2 iterations. Every lane
// reaches "finished", the group says "k of 2" with its interval, every lane's success is on the
// overlaid chart, each lane lands in the Runs tab, and the cross-scoring matrix of the main page
// is there once a run of the page has computed MI.
import { expect, test } from '@playwright/test';

test('2 seeds side by side with their frozen controls run to the end and are stored', async ({ page }) => {
  test.setTimeout(900_000);
  await page.goto('/');
  await page.getByTestId('field-iterations').fill('2');
  await page.getByTestId('backend-override').selectOption('wasm');
  await page.getByTestId('btn-fanout').click();
  await page.getByTestId('fanout-seeds').fill('2');
  await expect(page.getByTestId('fanout-frozen')).toBeChecked();
  await expect(page.getByTestId('fanout-start')).toHaveText('Start 4 runs');
  await expect(page.getByTestId('fanout-start')).toBeEnabled({ timeout: 60_000 });
  await page.getByTestId('fanout-start').click();
  const lanes = page.getByTestId('fanout-lane');
  await expect(lanes).toHaveCount(4);
  // Lanes beyond the logical cores minus one wait as queued (one at a time on 2 cores).
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  if (Math.max(1, cores - 1) < 4)
    await expect(page.locator('[data-testid="fanout-lane"][data-state="queued"]').first()).toBeVisible();
  for (let i = 0; i < 4; i++)
    await expect(lanes.nth(i)).toHaveAttribute('data-state', 'finished', { timeout: 600_000 });
  await expect(page.locator('[data-testid="fanout-lane"][data-frozen="true"]')).toHaveCount(2);
  await expect(page.getByTestId('fanout-count')).toHaveAttribute('data-finished', '2');
  await expect(page.getByTestId('fanout-count')).toContainText('of 2 finished seeds (95% interval');
  await expect(page.getByTestId('fanout-count')).toContainText('the frozen control in');
  await expect(page.getByTestId('fanout-panel').getByTestId('chart-success')).toBeVisible();
  await page.getByTestId('fanout-close').click();
  await page.getByTestId('tab-runs').click();
  await expect(page.getByTestId('run-item')).toHaveCount(4);
});
